// Package audit records operations; it is a module-local dependency of
// bank, loaded from source.
package audit

// Entries counts recorded operations.
var Entries int

// Record records one operation.
func Record(op string) {
	Entries++
}
