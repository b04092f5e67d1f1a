// Package quit ends the process. It is a dependency of the package under
// test and is not instrumented by confirm.
package quit

import "os"

// Now exits the process with status 3.
func Now() { os.Exit(3) }
