package rt

import (
	osexec "os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly checks that the runtime imports only the
// standard library: it is injected as source into the program under test,
// whose module does not require what the tool's module does.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := osexec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, path := range strings.Fields(string(out)) {
		if path != "github.com/confirm-go/confirm/confirm/rt" {
			t.Errorf("the runtime imports %s, which is not in the standard library", path)
		}
	}
}
