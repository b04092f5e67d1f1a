// Package longtest gates the evaluation-sized end-to-end tests: the
// fixture matrices and third-party builds that take minutes each on a
// 2-core machine. `make test` runs one case of each capability; with
// CONFIRM_LONG=1 in the environment (`make test-long`) the tests run
// every case.
package longtest

import (
	"os"
	"testing"
)

// Enabled reports whether CONFIRM_LONG asks for the long tests.
func Enabled() bool {
	v := os.Getenv("CONFIRM_LONG")
	return v != "" && v != "0"
}

// Skip skips t, saying why, unless the long tests are enabled.
func Skip(t testing.TB, why string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("%s; set CONFIRM_LONG=1 to run it", why)
	}
}
