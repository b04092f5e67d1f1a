package instrument

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/confirm/rt"
)

// TestAccessesAndObjects instruments the basic fixture with requested
// locations and all accesses, and checks locations, objects and that the
// tests still pass.
func TestAccessesAndObjects(t *testing.T) {
	dir, _ := filepath.Abs("testdata/basic")
	file := filepath.Join(dir, "basic.go")
	res := instrumentFixture(t, "testdata/basic", ".", Request{
		Accesses: true,
		Locations: []rt.Location{
			{File: "basic.go", Line: 76, Kind: "observe"},
			{File: file, Line: 29, Kind: "read"},
			{File: file, Line: 2, Kind: "observe"},               // no statement there
			{File: file, Line: 93, Kind: "observe"},              // a select case
			{File: "basic/tricky.go", Line: 44, Kind: "observe"}, // inside a statement, by path suffix
		},
	})
	got := rewrittenFile(t, res, "basic.go")
	for _, w := range []string{
		"confirmrt.Observe(0); s += v",
		"if a != nil { confirmrt.Read(confirmunsafe.Pointer(&a.balance), 1) }; ",
		"confirmunsafe.Pointer(&a.balance), ",
		"confirmrt.Write(confirmunsafe.Pointer(&total), ",
		"if b != nil && int(i+1-1) >= 0 && int(i+1-1) < len(b.accts) { confirmrt.Write(confirmunsafe.Pointer(&b.accts[i+1-1].balance), ",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("rewritten basic.go lacks %q", w)
		}
	}
	if strings.Contains(got, "Pointer(&c.mu)") || strings.Contains(got, "Pointer(&c.hits)") {
		t.Errorf("sync fields instrumented as accesses")
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "basic.go:2: requested observe location not found") {
		t.Errorf("no note for the missing location: %q", res.Notes)
	}
	lines := strings.Split(got, "\n")
	if l := lines[93-1]; !strings.Contains(l, "case 0: s := confirm_") || !strings.HasSuffix(l, ".V; confirmrt.Observe(3); ") {
		t.Errorf("line 93 = %q, want the Observe first in the case", l)
	}
	tricky := rewrittenFile(t, res, "tricky.go")
	if !strings.Contains(tricky, "if p != nil { confirmrt.Read(confirmunsafe.Pointer(&p.val), ") {
		t.Errorf("no read of p.val before the select:\n%s", tricky)
	}
	if l := strings.Split(tricky, "\n")[38-1]; !strings.HasPrefix(l, "\tconfirmrt.Observe(4); {") {
		t.Errorf("tricky.go:38 = %q, want the Observe before the go statement spanning line 44", l)
	}
	if len(res.Locations) <= 5 || res.Locations[1].Kind != "read" {
		t.Fatalf("locations: %+v", res.Locations)
	}
	want := map[string]string{"write": "writes (*basic.Account).balance", "total": "writes basic.total"}
	found := map[string]bool{}
	for _, l := range res.Locations[5:] {
		if l.File != file && l.File != filepath.Join(dir, "tricky.go") {
			t.Errorf("automatic location in %s", l.File)
		}
		if l.Line == 21 && l.Kind == "write" && l.Label == want["write"] {
			found["write"] = true
		}
		if l.Line == 78 && l.Label == want["total"] {
			found["total"] = true
		}
	}
	if len(found) != 2 {
		t.Errorf("automatic locations lack %v: %+v", want, res.Locations[5:])
	}
	objects := map[int]string{
		19:  "(*basic.Account).Mutex",
		42:  "(*basic.Counter).mu",
		177: "chan done",
		178: "chan done",
	}
	for line, w := range objects {
		if o := res.Objects[fmt.Sprintf("%s:%d", file, line)]; !strings.Contains(o, w) {
			t.Errorf("Objects[basic.go:%d] = %q, want %q", line, o, w)
		}
	}
	if len(res.Tests) != 6 || res.Tests[0] != "TestAccount" || res.Tests[3] != "TestSubtests" || res.Tests[4] != "TestTricky" || res.Tests[5] != "TestExternal" {
		t.Errorf("tests %v", res.Tests)
	}
	if p := res.TestPos["TestChannels"]; !strings.HasSuffix(p, "basic_test.go:31") {
		t.Errorf("TestPos[TestChannels] = %s", p)
	}
	out, err := goTest(t, res, dir)
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}
