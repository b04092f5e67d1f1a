package main_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// kernelsDir holds bug kernels: small packages, each the essence of a
// real concurrency bug of a large Go project, whose racing accesses or
// deadlocking acquisitions carry a trailing // race or // deadlock.
var kernelsDir = filepath.Join("..", "..", "testdata", "kernels")

// testKernels runs confirmvet through go vet over the bug kernels and
// checks that every kernel listed in recall.txt is still caught: a
// finding of the right kind on one of its marked lines. It logs the
// recall, and the kernels caught that recall.txt does not list yet.
func testKernels(t *testing.T, bin string) {
	want, err := readRecall(filepath.Join(kernelsDir, "recall.txt"))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, _ := run(t, kernelsDir, "go", "vet", "-vettool="+bin, "./...")
	found := map[string][]string{} // "dir/file.go:line" -> messages
	for _, f := range parseText(kernelsDir, stdout+stderr) {
		key := f.File + ":" + strconv.Itoa(f.Line)
		found[key] = append(found[key], f.Message)
	}
	for _, kind := range []string{"blocking", "nonblocking"} {
		marker := map[string]string{"blocking": "deadlock", "nonblocking": "race"}[kind]
		dirs, err := os.ReadDir(filepath.Join(kernelsDir, kind))
		if err != nil {
			t.Fatal(err)
		}
		caught, total := 0, 0
		for _, d := range dirs {
			if !d.IsDir() {
				continue
			}
			total++
			name := kind + "/" + d.Name()
			lines, err := markedLines(filepath.Join(kernelsDir, name), marker)
			if err != nil {
				t.Fatal(err)
			}
			hit := false
			for _, l := range lines {
				if kindOf(found[name+"/"+l]) == marker {
					hit = true
				}
			}
			switch {
			case hit:
				caught++
				if !want[name] {
					t.Logf("%s is caught now: add it to testdata/kernels/recall.txt", name)
				}
			case want[name]:
				t.Errorf("%s is no longer caught: no %s finding on its marked lines %v", name, marker, lines)
			}
		}
		t.Logf("%s kernels caught: %d of %d", kind, caught, total)
	}
}

// readRecall reads the kernels expected to be caught, one directory
// (blocking/name) per line; # starts a comment.
func readRecall(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			out[line] = true
		}
	}
	return out, nil
}

// markedLines returns "file.go:line" for each line of the kernel's Go
// files ending in the comment // marker.
func markedLines(dir, marker string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		for n := 1; sc.Scan(); n++ {
			if strings.HasSuffix(strings.TrimSpace(sc.Text()), "// "+marker) {
				out = append(out, filepath.Base(f)+":"+strconv.Itoa(n))
			}
		}
		err = sc.Err()
		_ = fh.Close()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", f, err)
		}
	}
	sort.Strings(out)
	return out, nil
}

// kindOf returns "race" when one of msgs is a data race finding,
// "deadlock" when one is a lock finding of lockorder, or "".
func kindOf(msgs []string) string {
	kind := ""
	for _, msg := range msgs {
		switch {
		case strings.HasPrefix(msg, "possible data race"):
			return "race"
		case strings.HasPrefix(msg, "double lock"), strings.HasPrefix(msg, "lock-order cycle"),
			strings.HasPrefix(msg, "recursive read lock"), strings.HasPrefix(msg, "lock leak"),
			strings.HasPrefix(msg, "lock held across"):
			kind = "deadlock"
		}
	}
	return kind
}
