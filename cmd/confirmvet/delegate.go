package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
)

// inProcessFlags are the flags only the in-process driver (package
// checker, through multichecker) offers; with any of them, or with the
// go vet protocol's own arguments, confirmvet does not delegate to go vet.
var inProcessFlags = map[string]bool{
	"V": true, "flags": true, "test": true, "cpuprofile": true, "memprofile": true,
	"trace": true, "fix": true, "diff": true, "c": true, "debug": true,
}

// delegates reports whether confirmvet, run with args, should hand the
// analysis to go vet (see run): when it is given packages and no flag of
// the in-process driver, and is not being run by go vet itself (a single
// *.cfg argument).
func delegates(args []string) bool {
	pkgs := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pkgs += len(args) - i - 1
			break
		}
		if !strings.HasPrefix(a, "-") {
			if strings.HasSuffix(a, ".cfg") {
				return false // the go vet protocol: flags, then unit.cfg
			}
			pkgs++
			continue
		}
		name := strings.TrimLeft(a, "-")
		if j := strings.IndexByte(name, '='); j >= 0 {
			name = name[:j]
		}
		if inProcessFlags[name] {
			return false
		}
	}
	return pkgs > 0
}

// A diagnostic is one finding as go vet -json reports it.
type diagnostic struct {
	Category string    `json:"category,omitempty"`
	Posn     string    `json:"posn"`
	End      string    `json:"end,omitempty"`
	Message  string    `json:"message"`
	Related  []related `json:"related,omitempty"`
}

type related struct {
	Posn    string `json:"posn"`
	End     string `json:"end,omitempty"`
	Message string `json:"message"`
}

// runViaGoVet analyzes the packages named in args by running
//
//	go vet -json -vettool=<this executable> args...
//
// so that each package is analyzed in a process of its own, in dependency
// order, with go's build and vet caches (the memory of one package at a
// time, where loading every package into one process takes gigabytes on
// a large module), and reports exactly what go vet -vettool reports. It
// prints the findings as the in-process driver does (file:line:col:
// message, related positions on lines of their own whose message starts
// with a tab; with -json, one JSON object by package and analyzer), each
// once (a package and its test variant share files), and returns the exit
// status: 3 with findings, 1 when go vet or an analyzer failed, 0
// otherwise.
func runViaGoVet(args []string, stdout, stderr io.Writer) int {
	self, err := os.Executable()
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "confirmvet: cannot find its own executable for go vet -vettool: %v\n", err)
		return 1
	}
	asJSON := false
	var vetArgs []string
	for _, a := range args {
		if a == "-json" || a == "--json" || a == "-json=true" || a == "--json=true" {
			asJSON = true
			continue
		}
		if a == "-json=false" || a == "--json=false" {
			continue
		}
		vetArgs = append(vetArgs, a)
	}
	cmd := exec.Command("go", append([]string{"vet", "-json", "-vettool=" + self}, vetArgs...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	runErr := cmd.Run()
	var exit *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exit) {
		_, _ = fmt.Fprintf(stderr, "confirmvet: running go vet: %v\n", runErr)
		return 1
	}
	tree, failures, err := decodeVetJSON(out.Bytes())
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "confirmvet: reading the output of go vet -json: %v\n", err)
		_, _ = stderr.Write(errOut.Bytes())
		return 1
	}
	status := 0
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "\t")
		if len(tree) > 0 {
			if err := enc.Encode(tree); err != nil {
				_, _ = fmt.Fprintf(stderr, "confirmvet: %v\n", err)
				return 1
			}
		}
	} else if n := printText(stderr, tree); n > 0 {
		status = 3
	}
	for _, f := range failures {
		_, _ = fmt.Fprintln(stderr, f)
		status = 1
	}
	if runErr != nil {
		// Packages that do not build, patterns that match nothing:
		// go vet says why.
		_, _ = stderr.Write(errOut.Bytes())
		if status == 0 || status == 3 {
			status = 1
		}
	}
	return status
}

// decodeVetJSON reads the stream of JSON objects go vet -json prints (one
// by package: analyzer to diagnostics, or to {"error": ...}), and merges
// them, dropping the duplicates of a package's test variant. It returns
// the diagnostics by package and analyzer, and the analyzer failures.
func decodeVetJSON(data []byte) (map[string]map[string][]diagnostic, []string, error) {
	tree := map[string]map[string][]diagnostic{}
	seen := map[string]bool{}
	var failures []string
	dec := json.NewDecoder(bytes.NewReader(stripComments(data)))
	for {
		var obj map[string]map[string]json.RawMessage
		if err := dec.Decode(&obj); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, nil, err
		}
		for pkg, byAnalyzer := range obj {
			pkg = basePackage(pkg)
			for analyzer, raw := range byAnalyzer {
				var diags []diagnostic
				if err := json.Unmarshal(raw, &diags); err != nil {
					var failure struct {
						Error string `json:"error"`
					}
					if json.Unmarshal(raw, &failure) == nil && failure.Error != "" {
						failures = append(failures, fmt.Sprintf("%s: %s: %s", pkg, analyzer, failure.Error))
						continue
					}
					return nil, nil, fmt.Errorf("package %s, analyzer %s: %w", pkg, analyzer, err)
				}
				for _, d := range diags {
					key := d.Posn + "\x00" + d.Message
					if seen[key] {
						continue
					}
					seen[key] = true
					if tree[pkg] == nil {
						tree[pkg] = map[string][]diagnostic{}
					}
					tree[pkg][analyzer] = append(tree[pkg][analyzer], d)
				}
			}
		}
	}
	return tree, failures, nil
}

// stripComments drops the "# package" lines go vet may print between the
// JSON objects.
func stripComments(data []byte) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			continue
		}
		out = append(out, line...)
	}
	return out
}

// basePackage returns the package path of a go vet package ID: "p" for
// "p [p.test]".
func basePackage(id string) string {
	if i := strings.Index(id, " ["); i >= 0 {
		return id[:i]
	}
	return id
}

// printText prints the diagnostics of tree sorted by position, as the
// in-process driver does, and returns how many it printed.
func printText(w io.Writer, tree map[string]map[string][]diagnostic) int {
	var all []diagnostic
	for _, byAnalyzer := range tree {
		for _, diags := range byAnalyzer {
			all = append(all, diags...)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return lessPosn(all[i].Posn, all[j].Posn) })
	for _, d := range all {
		_, _ = fmt.Fprintf(w, "%s: %s\n", d.Posn, d.Message)
		for _, r := range d.Related {
			_, _ = fmt.Fprintf(w, "%s: \t%s\n", r.Posn, r.Message)
		}
	}
	return len(all)
}

// lessPosn orders "file:line:col" positions by file, then line and
// column as numbers.
func lessPosn(a, b string) bool {
	fa, la, ca := splitPosn(a)
	fb, lb, cb := splitPosn(b)
	switch {
	case fa != fb:
		return fa < fb
	case la != lb:
		return la < lb
	}
	return ca < cb
}

func splitPosn(p string) (file string, line, col int) {
	file = p
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		col, _ = strconv.Atoi(file[i+1:])
		file = file[:i]
	}
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		line, _ = strconv.Atoi(file[i+1:])
		file = file[:i]
	}
	return file, line, col
}
