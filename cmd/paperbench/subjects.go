package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/confirm-go/confirm/confirm/rt"
)

// A subject is one of the paper's subjects as a package of the fixture
// module: its configurations are the package's tests named
// Test<Name><a>_<b>.
type subject struct {
	Name string // as in the paper, e.g. "TwoStage"
	Pkg  string // directory in the fixture module, e.g. "twostage"
	// Expect are the failure kinds that are the subject's bug.
	Expect []string
}

// subjects are the paper's subjects (§3.1) in the order of its Table 1.
var subjects = []subject{
	{Name: "TwoStage", Pkg: "twostage", Expect: []string{rt.FailTest}},
	{Name: "Reorder", Pkg: "reorder", Expect: []string{rt.FailTest}},
	{Name: "Wronglock", Pkg: "wronglock", Expect: []string{rt.FailTest}},
	{Name: "AbsList", Pkg: "abslist", Expect: []string{rt.FailPanic}},
	{Name: "Deadlock", Pkg: "deadlock", Expect: []string{rt.FailDeadlock}},
}

// A config is one configuration of a subject: a top-level test.
type config struct {
	Test string // e.g. "TestTwoStage10_1"
	A, B int    // the paper's parameters, e.g. (10,1)
}

// Label is the paper's name of the configuration, e.g. "TwoStage(10,1)".
func (c config) Label(s subject) string {
	return fmt.Sprintf("%s(%d,%d)", s.Name, c.A, c.B)
}

// A source holds what paperbench reads from a subject's package: its
// configurations, the key locations of its sequence in order, and the
// spawn positions the prefer heuristic favours.
type source struct {
	Configs []config
	Keys    []rt.Location
	Prefer  []string
}

var (
	keyComment    = regexp.MustCompile(`^//\s*key:\s*(\S+)\s+(\d+)\s*$`)
	preferComment = regexp.MustCompile(`^//\s*prefer:\s*(\S+)\s*$`)
)

// readSource parses the Go files of s's package in dir.
func readSource(dir string, s subject) (*source, error) {
	pkgDir := filepath.Join(dir, s.Pkg)
	files, err := filepath.Glob(filepath.Join(pkgDir, "*.go"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("subject %s: no Go files in %s", s.Name, pkgDir)
	}
	src := new(source)
	keys := map[int]rt.Location{}
	testName := regexp.MustCompile(`^Test` + regexp.QuoteMeta(s.Name) + `(\d+)_(\d+)$`)
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("subject %s: %w", s.Name, err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				pos := fset.Position(c.Pos())
				if m := keyComment.FindStringSubmatch(c.Text); m != nil && strings.EqualFold(m[1], s.Pkg) {
					i, _ := strconv.Atoi(m[2])
					if _, dup := keys[i]; dup {
						return nil, fmt.Errorf("subject %s: %s: key location %d marked twice", s.Name, pos, i)
					}
					keys[i] = rt.Location{File: pos.Filename, Line: pos.Line, Kind: "observe", Label: fmt.Sprintf("%s key %d", s.Pkg, i)}
				}
				if m := preferComment.FindStringSubmatch(c.Text); m != nil && strings.EqualFold(m[1], s.Pkg) {
					src.Prefer = append(src.Prefer, fmt.Sprintf("%s:%d", pos.Filename, pos.Line))
				}
			}
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				if m := testName.FindStringSubmatch(fd.Name.Name); m != nil {
					a, _ := strconv.Atoi(m[1])
					b, _ := strconv.Atoi(m[2])
					src.Configs = append(src.Configs, config{Test: fd.Name.Name, A: a, B: b})
				}
			}
		}
	}
	for i := 1; i <= len(keys); i++ {
		loc, ok := keys[i]
		if !ok {
			return nil, fmt.Errorf("subject %s: key locations are numbered 1..%d but %d is missing", s.Name, len(keys), i)
		}
		src.Keys = append(src.Keys, loc)
	}
	if len(src.Keys) == 0 {
		return nil, fmt.Errorf("subject %s: no key locations (comments // key: %s <n>) in %s", s.Name, s.Pkg, pkgDir)
	}
	if len(src.Configs) == 0 {
		return nil, fmt.Errorf("subject %s: no tests named Test%s<a>_<b> in %s", s.Name, s.Name, pkgDir)
	}
	sort.Slice(src.Configs, func(i, j int) bool {
		ci, cj := src.Configs[i], src.Configs[j]
		return ci.A+ci.B < cj.A+cj.B || ci.A+ci.B == cj.A+cj.B && ci.Test < cj.Test
	})
	return src, nil
}

// pickConfigs selects configurations: "all", "largest", "smallest", or
// those of a comma-separated list of test names that are among all.
func pickConfigs(all []config, which string) ([]config, error) {
	switch which {
	case "all":
		return all, nil
	case "largest":
		return all[len(all)-1:], nil
	case "smallest":
		return all[:1], nil
	}
	var out []config
	for name := range strings.SplitSeq(which, ",") {
		i := slices.IndexFunc(all, func(c config) bool { return c.Test == name })
		if i >= 0 {
			out = append(out, all[i])
		}
	}
	return out, nil
}

// pickSubjects selects subjects by name (comma-separated, any case);
// empty means all.
func pickSubjects(names string) ([]subject, error) {
	if names == "" {
		return subjects, nil
	}
	var out []subject
	for name := range strings.SplitSeq(names, ",") {
		i := slices.IndexFunc(subjects, func(s subject) bool { return strings.EqualFold(s.Name, strings.TrimSpace(name)) })
		if i < 0 {
			return nil, fmt.Errorf("unknown subject %q (want one of %s)", name, subjectNames())
		}
		out = append(out, subjects[i])
	}
	return out, nil
}

func subjectNames() string {
	var names []string
	for _, s := range subjects {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// checkDir reports a clear error when dir is not the fixture module.
func checkDir(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return fmt.Errorf("%s is not the fixture module (no go.mod): run paperbench from the repository root or set -dir", dir)
	}
	return nil
}
