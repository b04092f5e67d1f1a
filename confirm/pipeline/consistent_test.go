package pipeline

import (
	"go/token"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

func site(file string, line int, access warning.Access) warning.Site {
	return warning.Site{Position: token.Position{Filename: file, Line: line, Column: 2}, Access: access}
}

func TestConsistent(t *testing.T) {
	cycle := &warning.Warning{
		Kind:    warning.LockOrderCycle,
		Objects: []string{"(*abba.Account).mu"},
		Sites:   []warning.Site{site("/m/abba.go", 26, warning.AccessLock), site("/m/abba.go", 28, warning.AccessLock)},
	}
	race := &warning.Warning{
		Kind:  warning.Race,
		Sites: []warning.Site{site("/m/hits.go", 23, warning.AccessWrite), site("/m/hits.go", 30, warning.AccessRead)},
	}
	locs := []rt.Location{
		{File: "/m/abba.go", Line: 26, Kind: "observe"},
		{File: "/m/abba.go", Line: 28, Kind: "observe"},
		{File: "/m/hits.go", Line: 23, Kind: "write"},
		{File: "/m/hits.go", Line: 30, Kind: "read"},
	}
	fail := func(kind, msg string, objs ...int) *runner.Result {
		return &runner.Result{Verdict: rt.VerdictError, Failure: &rt.Failure{Kind: kind, Message: msg, Objects: objs}}
	}
	along := fail(rt.FailTest, "total = 1, want 2")
	along.Trace = []runner.Event{
		{Event: rt.Event{Op: "observe", Loc: 0}}, {Event: rt.Event{Op: "lock"}}, {Event: rt.Event{Op: "observe", Loc: 1}},
	}
	named := fail(rt.FailDeadlock, "all goroutines are blocked", 2)
	named.Trace = []runner.Event{{Event: rt.Event{Op: "lock", Object: 2}, Name: "(*abba.Account).mu"}}
	tests := []struct {
		name string
		w    *warning.Warning
		seq  []int
		res  *runner.Result
		want bool
	}{
		{"deadlock at the cycle's locks", cycle, []int{0, 1}, fail(rt.FailDeadlock, "wait-for cycle\n\tgoroutine 1: lock of mutex #2 at /m/abba.go:28"), true},
		{"deadlock elsewhere", cycle, []int{0, 1}, fail(rt.FailDeadlock, "wait-for cycle\n\tgoroutine 1: lock of mutex #2 at /m/other.go:9"), false},
		{"deadlock on the warning's lock class", cycle, []int{0, 1}, named, true},
		{"race on the warning's accesses", race, []int{2, 3}, fail(rt.FailRace, "data race: write at x (/m/hits.go:23) by goroutine 1 and read at y (/m/hits.go:30) by goroutine 2"), true},
		{"race on another field", race, []int{2, 3}, fail(rt.FailRace, "data race: write at x (/m/hits.go:23) by goroutine 1 and write at y (/m/other.go:7) by goroutine 2"), false},
		{"race for a lock warning", cycle, []int{0, 1}, fail(rt.FailRace, "data race: write at x (/m/abba.go:28) by goroutine 1 and write at x (/m/abba.go:28) by goroutine 2"), false},
		{"test failure along the sequence", cycle, []int{0, 1}, along, true},
		{"test failure off the sequence", race, []int{2, 3}, along, false},
		{"livelock", cycle, []int{0, 1}, fail(rt.FailLivelock, "exceeded at /m/abba.go:28"), false},
		{"no error", cycle, []int{0, 1}, &runner.Result{Verdict: rt.VerdictNone}, false},
	}
	// Confirmations by the sequence rule only, which the pipeline checks
	// without preemption.
	bySequence := map[string]bool{"test failure along the sequence": true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Consistent(tt.w, tt.seq, locs, tt.res); got != tt.want {
				t.Errorf("Consistent = %v, want %v", got, tt.want)
			}
			if got := BySequence(tt.w, tt.seq, locs, tt.res); got != bySequence[tt.name] {
				t.Errorf("BySequence = %v, want %v", got, bySequence[tt.name])
			}
		})
	}
}

func TestTokenRoundTrip(t *testing.T) {
	tok := Token{
		Locations: []rt.Location{{File: "/w/abba/abba.go", Line: 26, Col: 2, Kind: "observe", Label: "acquires A"}, {File: "/w/abba/abba.go", Line: 28, Kind: "write"}},
		Runner:    "c1.TestTransfer.plain.v1.abc",
	}
	s := tok.Encode("/w")
	if !IsToken(s) {
		t.Fatalf("IsToken(%q) = false", s)
	}
	got, err := ParseToken(s, "/elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	if got.Runner != tok.Runner || len(got.Locations) != 2 {
		t.Fatalf("ParseToken = %+v, want %+v", got, tok)
	}
	if l := got.Locations[0]; l.File != "/elsewhere/abba/abba.go" || l.Line != 26 || l.Col != 2 || l.Kind != "observe" {
		t.Errorf("location 0 = %+v, want /elsewhere/abba/abba.go:26:2 observe", l)
	}
	for _, bad := range []string{"", "c1.TestX.plain.v1.abc", "p1.!!", "p1." + s[len("p1."):len(s)-4]} {
		if _, err := ParseToken(bad, "/w"); err == nil {
			t.Errorf("ParseToken(%q) succeeded, want an error", bad)
		}
	}
}
