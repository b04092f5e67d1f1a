package instrument

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRuntimeDir checks that the runtime package's name depends on its
// files alone, so that the build cache keeps the compiled runtime across
// instrumentations, and that an existing directory is never used.
func TestRuntimeDir(t *testing.T) {
	root := t.TempDir()
	files := map[string][]byte{"a.go": []byte("package rt\n"), "b.go": []byte("package rt\n\nvar x int\n")}
	first, err := runtimeDir(root, files)
	if err != nil {
		t.Fatal(err)
	}
	again, err := runtimeDir(root, map[string][]byte{"b.go": files["b.go"], "a.go": files["a.go"]})
	if err != nil {
		t.Fatal(err)
	}
	if first != again {
		t.Errorf("same files named %s, then %s", first, again)
	}
	other, err := runtimeDir(root, map[string][]byte{"a.go": files["a.go"], "b.go": []byte("package rt\n\nvar y int\n")})
	if err != nil {
		t.Fatal(err)
	}
	if other == first {
		t.Errorf("different files share the name %s", first)
	}
	if err := os.Mkdir(first, 0o755); err != nil {
		t.Fatal(err)
	}
	taken, err := runtimeDir(root, files)
	if err != nil {
		t.Fatal(err)
	}
	if taken == first || filepath.Dir(taken) != root {
		t.Errorf("with %s existing, got %s", first, taken)
	}
}
