package pipeline

import (
	"encoding/json"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
	"github.com/confirm-go/confirm/confirm/synth"
)

func site(file string, line int, access warning.Access) warning.Site {
	return warning.Site{Position: token.Position{Filename: file, Line: line, Column: 2}, Access: access}
}

// TestConfirms checks that only a failure of the warning's own kind on its
// own sites confirms it.
func TestConfirms(t *testing.T) {
	cycle := &warning.Warning{
		Kind:    warning.LockOrderCycle,
		Objects: []string{"(abba.Account).mu"},
		Sites:   []warning.Site{site("/m/abba.go", 26, warning.AccessLock), site("/m/abba.go", 28, warning.AccessLock)},
	}
	race := &warning.Warning{
		Kind:    warning.Race,
		Objects: []string{"(hits.Counter).total"},
		Sites:   []warning.Site{site("/m/hits.go", 23, warning.AccessWrite), site("/m/hits.go", 30, warning.AccessRead), site("/m/hits.go", 20, warning.AccessLock)},
	}
	user := &warning.Warning{Kind: "sequence"}
	locs := []rt.Location{
		{File: "/m/abba.go", Line: 26, Kind: "observe"},
		{File: "/m/abba.go", Line: 28, Kind: "observe"},
		{File: "/m/hits.go", Line: 23, Kind: "write", Label: "(hits.Counter).total"},
		{File: "/m/hits.go", Line: 30, Kind: "read", Label: "(hits.Counter).total"},
		{File: "/m/hits.go", Line: 30, Kind: "read", Label: "(hits.Counter).hits"},
	}
	fail := func(f *rt.Failure) *runner.Result { return &runner.Result{Verdict: rt.VerdictError, Failure: f} }
	deadlock := func(frames ...string) *runner.Result {
		f := &rt.Failure{Kind: rt.FailDeadlock}
		for i, fr := range frames {
			f.Waits = append(f.Waits, rt.Wait{G: i + 1, Op: "lock", Frames: []string{fr, "/m/abba_test.go:12"}})
			f.Cycle = append(f.Cycle, i+1)
		}
		return fail(f)
	}
	racy := func(a, b rt.Access) *runner.Result {
		return fail(&rt.Failure{Kind: rt.FailRace, Accesses: []rt.Access{a, b}})
	}
	total23 := rt.Access{G: 1, Loc: 2, Write: true, Pos: "/m/hits.go:23", Label: "(hits.Counter).total"}
	total30 := rt.Access{G: 2, Loc: 3, Pos: "/m/hits.go:30", Label: "(hits.Counter).total"}
	hits30 := rt.Access{G: 2, Loc: 4, Pos: "/m/hits.go:30", Label: "(hits.Counter).hits"}
	along := fail(&rt.Failure{Kind: rt.FailTest, Message: "total = 1, want 2"})
	along.Trace = []runner.Event{
		{Event: rt.Event{Op: "observe", Loc: 0}}, {Event: rt.Event{Op: "lock"}}, {Event: rt.Event{Op: "observe", Loc: 1}},
	}
	tests := []struct {
		name string
		w    *warning.Warning
		seq  []int
		res  *runner.Result
		want bool
	}{
		{"cycle at the warning's locks", cycle, []int{0, 1}, deadlock("/m/abba.go:28", "/m/abba.go:28"), true},
		{"cycle elsewhere", cycle, []int{0, 1}, deadlock("/m/abba.go:28", "/m/other.go:9"), false},
		{"race on the warning's accesses", race, []int{2, 3}, racy(total23, total30), true},
		{"race on another field of the same line", race, []int{2, 3}, racy(total23, hits30), false},
		// Two writes at the warning's write site are a race on its
		// variable, but not the warned read against the write.
		{"race at one of the warning's accesses twice", race, []int{2, 3}, racy(total23, rt.Access{G: 2, Loc: 2, Write: true, Pos: "/m/hits.go:23", Label: "(hits.Counter).total"}), false},
		{"race on the warning's accesses the other way round", race, []int{2, 3}, racy(total30, total23), true},
		{"race at a lock site", race, []int{2, 3}, racy(total23, rt.Access{G: 2, Pos: "/m/hits.go:20"}), false},
		{"race for a lock warning", cycle, []int{0, 1}, racy(rt.Access{Pos: "/m/abba.go:28"}, rt.Access{Pos: "/m/abba.go:28"}), false},
		{"test failure along a warning's sequence", cycle, []int{0, 1}, along, false},
		{"test failure along a user sequence", user, []int{0, 1}, along, true},
		{"test failure off a user sequence", user, []int{2, 3}, along, false},
		{"no error", cycle, []int{0, 1}, &runner.Result{Verdict: rt.VerdictNone}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Confirms(tt.w, tt.seq, locs, tt.res); got != tt.want {
				t.Errorf("Confirms = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestWant: a race's sites are its accesses and the read and write steps
// of its sequence, not its lock sites.
func TestWant(t *testing.T) {
	race := &warning.Warning{
		Kind:    warning.Race,
		Objects: []string{"(hits.Counter).total"},
		Sites:   []warning.Site{site("/m/hits.go", 23, warning.AccessWrite), site("/m/hits.go", 20, warning.AccessLock)},
	}
	locs := []rt.Location{{File: "/m/hits.go", Line: 12, Kind: "observe"}, {File: "/m/hits.go", Line: 40, Kind: "read"}}
	w := Want(race, []int{0, 1}, locs)
	if w.Kind != rt.WantRace || !slices.Equal(w.Sites, []string{"/m/hits.go:23", "/m/hits.go:40"}) || !slices.Equal(w.Objects, race.Objects) {
		t.Errorf("Want = %+v", w)
	}
}

// TestCollectBugs: a bug is reported once per package and signature with
// every warning whose search found it, and not at all when it is the
// failure that confirms a warning.
func TestCollectBugs(t *testing.T) {
	failure := func(pos string) *rt.Failure {
		return &rt.Failure{Kind: rt.FailRace, Accesses: []rt.Access{{Pos: pos, Write: true}, {Pos: pos}}}
	}
	bug := func(pkg, pos, by string) *Bug {
		f := failure(pos)
		return &Bug{Signature: f.Signature(), Package: pkg, Result: &runner.Result{Package: pkg, Failure: f}, FoundBy: []string{by}}
	}
	confirmedBy := func(pkg, pos string) *runner.Result {
		return &runner.Result{Package: pkg, Verdict: rt.VerdictError, Failure: failure(pos)}
	}
	a := &item{finding: &Finding{Warning: &warning.Warning{ID: "a"}, Verdict: Unconfirmed},
		bugs: []*Bug{bug("p", "/m/x.go:1", "a"), bug("p", "/m/y.go:2", "a")}}
	b := &item{finding: &Finding{Warning: &warning.Warning{ID: "b"}, Verdict: Confirmed, Result: confirmedBy("p", "/m/y.go:2")},
		bugs: []*Bug{bug("p", "/m/x.go:1", "b")}}
	c := &item{finding: &Finding{Warning: &warning.Warning{ID: "c"}, Verdict: Unconfirmed},
		bugs: []*Bug{bug("q", "/m/x.go:1", "c")}}
	bugs := collectBugs([]*packagePlan{{items: []*item{a, b}}, {items: []*item{c}}})
	if len(bugs) != 2 || bugs[0].Package != "p" || !slices.Equal(bugs[0].FoundBy, []string{"a", "b"}) || bugs[1].Package != "q" {
		for _, b := range bugs {
			t.Logf("bug %s %s %v", b.Package, b.Signature, b.FoundBy)
		}
		t.Fatalf("got %d bugs, want x.go in p found by a and b, and x.go in q", len(bugs))
	}
	if len(a.finding.Bugs) != 1 || len(b.finding.Bugs) != 1 || len(c.finding.Bugs) != 1 {
		t.Errorf("bugs per finding: a %v, b %v, c %v; want the race on x.go each, and not y.go (it confirms b)", a.finding.Bugs, b.finding.Bugs, c.finding.Bugs)
	}
}

// TestBugIDStable: a bug's id does not depend on where the module is
// checked out, and tells different bugs apart.
func TestBugIDStable(t *testing.T) {
	a := BugID("deadlock: cond.wait /home/me/ants/ants.go:539")
	b := BugID("deadlock: cond.wait /tmp/corpus/ants/ants.go:539")
	c := BugID("deadlock: cond.wait /tmp/corpus/ants/ants.go:540")
	if a != b || a == c {
		t.Errorf("ids %s, %s (want equal) and %s (want different)", a, b, c)
	}
}

// TestSummary: a test failure's one-line summary says what testify's
// report says, not only where the test failed.
func TestSummary(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"a_test.go:12: len = 0, want 1", "a_test.go:12: len = 0, want 1"},
		{"ants_test.go:547: \n\tError Trace:\t/m/ants_test.go:547\n\tError:      \tReceived unexpected error:\n\t            \ttoo many goroutines blocked on submit\n\tTest:       \tTestX",
			"ants_test.go:547: Received unexpected error: too many goroutines blocked on submit"},
		{"r_test.go:335: \n\tError Trace:\tr_test.go:335\n\tError:      \tNot equal: \n", "r_test.go:335: Not equal:"},
	}
	for _, tt := range tests {
		if got := summary(tt.msg); got != tt.want {
			t.Errorf("summary(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

// TestSynthesizedOutput checks that a confirmation by a synthesized test
// says so in every output: the verdict text, -json's synthesized object
// and SARIF's property, each with the test's source.
func TestSynthesizedOutput(t *testing.T) {
	h := &synth.Harness{Test: "TestConfirmSynth_x_1", Warning: "race-x", Source: "func TestConfirmSynth_x_1(t *testing.T) {}\n"}
	f := &Finding{
		Warning:     &warning.Warning{ID: "race-x", Kind: warning.Race, Message: "possible data race"},
		Verdict:     Confirmed,
		Test:        h.Test,
		Synthesized: h,
	}
	rep := &Report{Findings: []*Finding{f}}
	if got := VerdictText(f); got != "confirmed with a synthesized test" {
		t.Errorf("VerdictText = %q", got)
	}
	var r Renderer
	js := r.JSON(rep)
	if len(js) != 1 || js[0].Synthesized == nil || js[0].Synthesized.Test != h.Test || js[0].Synthesized.Source != h.Source {
		t.Errorf("JSON synthesized = %+v", js[0].Synthesized)
	}
	data, err := json.Marshal(r.SARIF(rep))
	if err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, data)
	if !strings.Contains(string(data), `"synthesizedTest":"func TestConfirmSynth_x_1(t *testing.T) {}\n"`) ||
		!strings.Contains(string(data), "[confirmed with a synthesized test]") {
		t.Errorf("SARIF lacks the synthesized test:\n%s", data)
	}
}
