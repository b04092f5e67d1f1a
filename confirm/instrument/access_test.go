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
		"return confirmrt.Rd(&a.balance, 1)",
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
	if !strings.Contains(tricky, "confirmrt.SendCase(/*line") || !strings.Contains(tricky, "*/confirmrt.Rd(&p.val, ") {
		t.Errorf("no read of p.val in the send case of the select:\n%s", tricky)
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

// TestAccessMoments checks that every form of access is a scheduling
// point at the moment it happens: reads in place (after the calls and
// receives to their left), writes after the right-hand side, the call or
// the receive that orders them, in every statement form. Each rewrite
// must type-check (instrumentFixture fails otherwise) and keep the lines.
func TestAccessMoments(t *testing.T) {
	const prelude = `import "unsafe"
var _ = unsafe.Sizeof(0)
type S struct { v, n, k int; running bool; arr [4]int; items []int; m map[int]int; err error; ch chan int; fn func() int }
func get() int { return 1 }
func pair() (int, error) { return 1, nil }
func val() S { return S{} }
`
	tests := []struct {
		name string
		src  string
		want []string
		note string
	}{
		{"write after a receive", `func f(s *S, ch chan int) { s.v = <-ch }`,
			[]string{"s.v = confirmrt.Recv(ch); if s != nil { confirmrt.Write(confirmunsafe.Pointer(&s.v), "}, ""},
		{"write after a call", `func f(s *S) { s.v = get() }`,
			[]string{"s.v = get(); if s != nil { confirmrt.Write(confirmunsafe.Pointer(&s.v), "}, ""},
		{"multi-value write after a call", `func f(s *S) { s.v, s.err = pair() }`,
			[]string{"s.v, s.err = pair(); if s != nil { confirmrt.Write(confirmunsafe.Pointer(&s.v), ", "confirmrt.Write(confirmunsafe.Pointer(&s.err), "}, ""},
		{"op-assign after a call", `func f(s *S) { s.v += get() }`,
			[]string{"s.v += get(); if s != nil { confirmrt.Write("}, ""},
		{"write without a call: before", `func f(s *S, x int) { s.v = x + 1 }`,
			[]string{"if s != nil { confirmrt.Write(confirmunsafe.Pointer(&s.v), 0) }; s.v = x + 1"}, ""},
		{"read in a send: before the send", `func f(s *S, ch chan int) { ch <- s.v }`,
			[]string{"confirmrt.Send(ch, confirmrt.Rd(&s.v, 0))"}, ""},
		{"read after a receive to its left", `func f(s *S, ch chan int) int { return <-ch + s.v }`,
			[]string{"return confirmrt.Recv(ch) + confirmrt.Rd(&s.v, 0)"}, ""},
		{"loop condition and post: every iteration", `func f(s *S) { for ; s.running; s.n++ { } }`,
			[]string{"for ; confirmrt.Rd(&s.running, ", "s.n += confirmrt.W(&s.n, "}, ""},
		{"if init", `func f(s *S) { if s.v = get(); s.v > 0 { } }`,
			[]string{"if s.v = confirmrt.W(&s.v, 0).V(get()); confirmrt.Rd(&s.v, 1) > 0"}, ""},
		{"range into fields: each iteration", `func f(s *S, xs []int) { for s.k, s.v = range xs { } }`,
			[]string{"{ if s != nil { confirmrt.Write(confirmunsafe.Pointer(&s.k), ", "confirmrt.Write(confirmunsafe.Pointer(&s.v), "}, ""},
		{"array read stays addressable", `func f(s *S) []int { return s.arr[1:] }`,
			[]string{"return (*confirmrt.RdP(&s.arr, 0))[1:]"}, ""},
		{"map and slice headers", `func f(s *S, i int) { s.m[i] = s.items[i] }`,
			[]string{"confirmrt.Rd(&s.m, ", "[i] = confirmrt.Rd(&s.items, "}, ""},
		{"len of a map or slice field reads it", `func f(s *S) int { return len(s.m) + cap(s.items) }`,
			[]string{"return len(confirmrt.Rd(&s.m, 0)) + cap(confirmrt.Rd(&s.items, 1))"}, ""},
		{"len of an array or channel field does not", `func f(s *S) int { return len(s.arr) + len(s.ch) }`,
			[]string{"return len(s.arr) + len(s.ch)"}, ""},
		{"func field called", `func f(s *S) int { return s.fn() }`,
			[]string{"return confirmrt.Rd(&s.fn, 0)()"}, ""},
		{"go statement arguments in the spawner", `func f(s *S) { go fmt(s.v) }
func fmt(int) {}`,
			[]string{"*/confirmrt.Rd(&s.v, 0)/*line", "confirmrt.Go(func() { fmt(confirm_a"}, ""},
		{"constant operand", `func f(s *S) uintptr { return unsafe.Sizeof(s.v) }`,
			[]string{"unsafe.Sizeof(s.v)"}, "an operand of unsafe.Sizeof"},
		{"not addressable", `func f() int { return val().v }`,
			[]string{"return val().v"}, "its address cannot be taken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeModule(t, map[string]string{"p.go": "package p\n\n" + prelude + tt.src + "\n"})
			res := instrumentFixture(t, dir, ".", Request{Accesses: true})
			got := rewrittenFile(t, res, "p.go")
			body := got[strings.Index(got, "func f"):]
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("rewritten source lacks %q:\n%s", w, body)
				}
			}
			if want, got := strings.Count("package p\n\n"+prelude+tt.src+"\n", "\n"), strings.Count(got, "\n"); want != got {
				t.Errorf("rewritten source has %d lines, want %d", got, want)
			}
			if tt.note != "" && !strings.Contains(strings.Join(res.Notes, "\n"), tt.note) {
				t.Errorf("notes lack %q: %q", tt.note, res.Notes)
			}
		})
	}
}

// TestRequestedReadOfWrittenOperand: a read requested at an operand that
// is also written (x++, x op= y) cannot be wrapped in place; it becomes a
// point where the write's would be, and the rewrite type-checks.
func TestRequestedReadOfWrittenOperand(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"inc", "func f(s *S) {\n\ts.n++\n}", "if s != nil { confirmrt.Read(confirmunsafe.Pointer(&s.n), 0) }; s.n++"},
		{"op-assign", "func f(s *S) {\n\ts.n += 2\n}", "if s != nil { confirmrt.Read(confirmunsafe.Pointer(&s.n), 0) }; s.n += 2"},
		{"op-assign after a call", "func f(s *S) {\n\ts.n += get()\n}", "s.n += get(); if s != nil { confirmrt.Read(confirmunsafe.Pointer(&s.n), 0) };"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package p\n\ntype S struct{ n int }\n\nfunc get() int { return 1 }\n\n" + tt.src + "\n"
			dir := writeModule(t, map[string]string{"p.go": src})
			file := filepath.Join(dir, "p.go")
			res := instrumentFixture(t, dir, ".", Request{Locations: []rt.Location{{File: file, Line: 8, Kind: "read"}}})
			if got := rewrittenFile(t, res, "p.go"); !strings.Contains(got, tt.want) {
				t.Errorf("rewritten source lacks %q:\n%s", tt.want, got)
			}
		})
	}
}

// TestRequestedChannelFieldRead: a read requested at a channel operand that
// is a field (<-s.ch, s.ch <- v, a select case on s.ch) reads the field in
// place, so the race oracle sees it against a write of s.ch; without a
// request the operand stays as it is.
func TestRequestedChannelFieldRead(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"receive", "func f(s *S) int {\n\treturn <-s.ch\n}", "return confirmrt.Recv(confirmrt.Rd(&s.ch, 0))"},
		{"send", "func f(s *S) {\n\ts.ch <- 1\n}", "confirmrt.Rd(&s.ch, 0)"},
		{"select case", "func f(s *S) int {\n\tselect { case v := <-s.ch: return v; default: return 0 }\n}", "NewRecvSlot(/*line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package p\n\ntype S struct{ ch chan int }\n\nfunc get() int { return 1 }\n\n" + tt.src + "\n"
			dir := writeModule(t, map[string]string{"p.go": src})
			file := filepath.Join(dir, "p.go")
			res := instrumentFixture(t, dir, ".", Request{Locations: []rt.Location{{File: file, Line: 8, Kind: "read"}}})
			got := rewrittenFile(t, res, "p.go")
			if !strings.Contains(got, tt.want) || !strings.Contains(got, "confirmrt.Rd(&s.ch, 0)") {
				t.Errorf("rewritten source lacks %q and the read of s.ch:\n%s", tt.want, got)
			}
			auto := rewrittenFile(t, instrumentFixture(t, dir, ".", Request{Accesses: true}), "p.go")
			if strings.Contains(auto, "Rd(&s.ch") {
				t.Errorf("automatic accesses read the channel operand:\n%s", auto)
			}
		})
	}
}

// TestUnobservedRequest: a requested read that cannot be instrumented as
// an access (its address cannot be taken) is listed in Unobserved, so
// the pipeline does not take an exhausted search for evidence.
func TestUnobservedRequest(t *testing.T) {
	src := "package p\n\ntype S struct{ v int }\n\nfunc val() S { return S{} }\n\nfunc f(s *S) int {\n\treturn val().v + s.v\n}\n"
	dir := writeModule(t, map[string]string{"p.go": src})
	file := filepath.Join(dir, "p.go")
	res := instrumentFixture(t, dir, ".", Request{Locations: []rt.Location{
		{File: file, Line: 8, Col: 9, Kind: "read"},  // val().v
		{File: file, Line: 8, Col: 19, Kind: "read"}, // s.v
	}})
	if len(res.Unobserved) != 1 || res.Unobserved[0] != 0 {
		t.Errorf("Unobserved = %v, want [0] (val().v only)", res.Unobserved)
	}
}
