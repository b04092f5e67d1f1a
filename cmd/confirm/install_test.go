package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// TestInstall checks that the tool installs the Go way: the module, packed
// into a file-system module proxy (the dependencies come from the module
// cache, also as a file proxy; no network), installs with
// `go install …/cmd/confirm@version` (and confirmvet), and the installed
// confirm confirms the demo's warnings.
func TestInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tool from a module proxy")
	}
	t.Parallel()
	const path, version = "github.com/confirm-go/confirm", "v0.0.0-test"
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	at := filepath.Join(proxy, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := zip.CreateFromDir(zf, module.Version{Path: path, Version: version}, root); err != nil {
		t.Fatalf("packing the module: %v", err)
	}
	if err := zf.Close(); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		version + ".mod":  string(gomod),
		version + ".info": `{"Version":"` + version + `","Time":"2026-01-01T00:00:00Z"}`,
		"list":            version + "\n",
	} {
		if err := os.WriteFile(filepath.Join(at, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	cache := filepath.Join(strings.TrimSpace(string(out)), "cache", "download")
	modcache, bin := filepath.Join(tmp, "modcache"), filepath.Join(tmp, "bin")
	env := append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(cache),
		"GOFLAGS=-mod=mod", "GOSUMDB=off", "GONOSUMDB=", "GOPRIVATE=", "GONOPROXY=",
		"GOTOOLCHAIN=local", "GOWORK=off", "GOMODCACHE="+modcache, "GOBIN="+bin,
	)
	t.Cleanup(func() {
		// The module cache is read-only; the go command removes it.
		clean := exec.Command("go", "clean", "-modcache")
		clean.Env = env
		_ = clean.Run()
	})
	install := exec.Command("go", "install", path+"/cmd/confirm@"+version, path+"/cmd/confirmvet@"+version)
	install.Dir, install.Env = tmp, env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install from the file proxy: %v\n%s", err, out)
	}
	for _, name := range []string{"confirm", "confirmvet"} {
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			t.Fatalf("go install did not install %s: %v", name, err)
		}
	}
	run := exec.Command(filepath.Join(bin, "confirm"), "-budget", "10s", "-seed", "1", "./...")
	run.Dir = filepath.Join(root, "confirm", "pipeline", "testdata", "demo")
	stdout, err := run.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitFound {
		t.Fatalf("the installed confirm on the demo: %v, want exit status %d\n%s", err, exitFound, stdout)
	}
	if !strings.Contains(string(stdout), "2 confirmed") {
		t.Errorf("the installed confirm did not confirm the demo's two warnings:\n%s", stdout)
	}
}
