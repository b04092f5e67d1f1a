package pipeline

import (
	"strings"
	"testing"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// TestEndedUncontrolled: the cause of a search that explored every
// schedule of a binary whose constructs the scheduler does not all
// control says so, naming the construct nearest a step of the sequence;
// a warned access that could not be instrumented comes first. The
// synthesized tests' searches end through the same method, with their
// own binary.
func TestEndedUncontrolled(t *testing.T) {
	locs := []rt.Location{
		{File: "/m/p/a.go", Line: 10, Kind: "read"},
		{File: "/m/p/a.go", Line: 20, Kind: "write"},
	}
	far := "/m/p/a.go:50:2: mu keeps its real sync type: it flows into code that needs the real type here; its operations are not scheduling points"
	near := "/m/p/a.go:22:3: c keeps its real sync type: it flows into code that needs the real type here; its operations are not scheduling points"
	other := "/m/p/b.go:5:1: receive on a channel of type parameter type not instrumented"
	pkg := "package example.com/m/q (imported) stays uncontrolled: it uses cgo"
	tests := []struct {
		name string
		bin  *runner.Binary
		race bool
		want string
	}{
		{
			name: "every operation controlled",
			bin:  &runner.Binary{},
			want: "every schedule of TestX was explored (3 executions): none shows this",
		},
		{
			name: "the construct nearest a step of the sequence",
			bin:  &runner.Binary{Uncontrolled: []string{other, far, near}},
			want: "every schedule Confirm controls of TestX was explored (3 executions): none shows this; but not every operation is controlled: " +
				strings.TrimPrefix(near, "/m/p/") + " (and 2 more)",
		},
		{
			name: "none in the sequence's files: the first",
			bin:  &runner.Binary{Uncontrolled: []string{pkg, other}},
			want: "every schedule Confirm controls of TestX was explored (3 executions): none shows this; but not every operation is controlled: " + pkg + " (and 1 more)",
		},
		{
			name: "a warned access not instrumented",
			bin:  &runner.Binary{Unobserved: []int{1}, Uncontrolled: []string{near}},
			race: true,
			want: "the warned write at a.go:20 could not be instrumented as an access, so no execution of TestX can show this race",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &packagePlan{locs: locs}
			res := &runner.Result{Test: "TestX", Stats: rt.Stats{Exhausted: true, Executions: 3, Goroutines: 2, SiteGoroutines: 2}}
			if got := p.ended(tt.bin, res, tt.race, []int{0, 1}); got != tt.want {
				t.Errorf("cause\n\t%s\nwant\n\t%s", got, tt.want)
			}
		})
	}
}
