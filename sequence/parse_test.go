package sequence_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/sequence"
)

func TestParse(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	locks := filepath.Join(testdata, "locks")
	abba := filepath.Join(locks, "abba.go")
	multi := filepath.Join(locks, "multi.go")
	tests := []struct {
		name, spec, wd string
		want           []string // file:line:col, or nil when an error is expected
		wantErr        string
	}{
		{"relative to wd", "abba.go:14, abba.go:23:3", locks, []string{abba + ":14:2", abba + ":23:3"}, ""},
		{"relative path with directory", "locks/abba.go:24", testdata, []string{abba + ":24:2"}, ""},
		{"absolute path", abba + ":15", "/", []string{abba + ":15:2"}, ""},
		{"loop header", "multi.go:5", locks, []string{multi + ":5:2"}, ""},
		{"inside a multi-line statement", "multi.go:13", locks, []string{multi + ":13:3"}, ""},
		{"end of a loop", "multi.go:7", locks, nil, "line 7 of multi.go holds no statement"},
		{"empty", " ", locks, nil, "empty -seq"},
		{"empty step", "abba.go:14,", locks, nil, `step 2 "": empty step`},
		{"no line", "abba.go", locks, nil, "want file.go:LINE"},
		{"bad line", "abba.go:x", locks, nil, `bad line "x"`},
		{"line zero", "abba.go:0", locks, nil, "line 0 out of range: abba.go has"},
		{"line past the end", "abba.go:999", locks, nil, "line 999 out of range"},
		{"column past the end", "abba.go:14:40", locks, nil, "column 40 out of range"},
		{"missing file", "nosuch.go:3", locks, nil, "nosuch.go: no such file"},
		{"missing file name", ":3", locks, nil, "missing file name"},
		{"not go", "go.mod:1", locks, nil, "not a .go file"},
		{"comment line", "abba.go:12", locks, nil, "line 12 of abba.go holds no statement"},
		{"closing brace", "abba.go:19", locks, nil, "line 19 of abba.go holds no statement"},
		{"package-level declaration", "abba.go:7", locks, nil, "holds no statement"},
		{"second step bad", "abba.go:14,abba.go:1", locks, nil, `step 2 "abba.go:1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seq, err := sequence.Parse(tt.spec, tt.wd)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse(%q) error = %v, want one containing %q", tt.spec, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.spec, err)
			}
			var got []string
			for _, s := range seq.Steps {
				if s.Kind != sequence.KindObserve {
					t.Errorf("step %v: kind %q, want observe", s, s.Kind)
				}
				got = append(got, fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Col))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q) = %q, want %q", tt.spec, got, tt.want)
			}
			if seq.WarningID != "user" || len(seq.Why) != len(seq.Steps) {
				t.Errorf("WarningID %q, %d reasons for %d steps", seq.WarningID, len(seq.Why), len(seq.Steps))
			}
		})
	}
}
