// Package hangs stores values in a lockbox.Box, whose Update blocks forever.
package hangs

import "example.com/robustdep/lockbox"

// Store stores v in a new box.
func Store(v int) {
	var b lockbox.Box
	b.Update(v)
}
