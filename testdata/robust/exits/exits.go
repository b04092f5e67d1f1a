// Package exits ends the process, directly and through a dependency.
package exits

import (
	"os"

	"example.com/robustdep/quit"
)

// Stop exits the process with status 4.
func Stop() { os.Exit(4) }

// StopInDependency exits the process in code confirm does not instrument.
func StopInDependency() { quit.Now() }
