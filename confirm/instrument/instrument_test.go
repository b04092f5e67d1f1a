package instrument

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// instrumentFixture instruments package pkg of the fixture module dir.
func instrumentFixture(t *testing.T, dir, pkg string, req Request) *Result {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	req.Dir, req.Package = abs, pkg
	res, err := Instrument(context.Background(), req)
	if err != nil {
		t.Fatalf("Instrument: %v", err)
	}
	t.Cleanup(func() {
		if os.Getenv("CONFIRM_KEEP") != "" {
			return
		}
		if err := res.Remove(); err != nil {
			t.Error(err)
		}
	})
	if os.Getenv("CONFIRM_KEEP") != "" {
		t.Logf("overlay: %s", res.Overlay)
	}
	return res
}

// goTest runs go test on the instrumented package and returns its output;
// in -short mode it skips the rest of the test.
func goTest(t *testing.T, res *Result, dir string, args ...string) (string, error) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: not running go test on the instrumented package")
	}
	cmdArgs := append([]string{"test", "-count=1"}, res.GoTestFlags()...)
	cmdArgs = append(cmdArgs, args...)
	cmdArgs = append(cmdArgs, res.ImportPath)
	cmd := exec.Command("go", cmdArgs...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CONFIRM_CONFIG=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestBasicBehavesTheSame(t *testing.T) {
	res := instrumentFixture(t, "testdata/basic", ".", Request{})
	out, err := goTest(t, res, "testdata/basic", "-v")
	if err != nil {
		t.Fatalf("go test of the instrumented package failed: %v\n%s", err, out)
	}
	for _, name := range []string{"TestAccount", "TestChannels", "TestSpawn", "TestSubtests", "TestTricky", "TestExternal"} {
		if !strings.Contains(out, "--- PASS: "+name) {
			t.Errorf("%s did not pass:\n%s", name, out)
		}
	}
}

// TestModulePackagesRewritten: the packages of the module that the package
// under test imports are rewritten for their synchronization (their
// atomics become the runtime's) and are in the overlay; they get no
// automatic access points.
func TestModulePackagesRewritten(t *testing.T) {
	res := instrumentFixture(t, filepath.Join("..", "..", "testdata", "spin"), "./tally", Request{Accesses: true})
	lock := rewrittenFile(t, res, "lock.go")
	if !strings.Contains(lock, "confirmrt.CompareAndSwapUint32(") || !strings.Contains(lock, "confirmrt.Gosched()") {
		t.Errorf("lock.go is not rewritten:\n%s", lock)
	}
	if strings.Contains(lock, "confirmrt.Rd(") || strings.Contains(lock, "confirmrt.Write(") {
		t.Errorf("lock.go has access points:\n%s", lock)
	}
	for _, l := range res.Locations {
		if strings.HasSuffix(l.File, "lock.go") {
			t.Errorf("a location in lock.go: %+v", l)
		}
	}
}
