package sequence_test

import (
	"reflect"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/sequence"
)

func TestGenerateRace(t *testing.T) {
	f := load(t, "races")
	access := func(file string, line, col int, a warning.Access, obj, fn string) warning.Site {
		return warning.Site{Position: f.at(file, line, col), Access: a, Object: obj, Func: fn, Role: string(a) + "s " + obj}
	}
	const (
		hits  = "races.Server.hits"
		total = "races.Stats.total"
	)
	tests := []struct {
		name  string
		test  string
		sites []warning.Site
		want  []string
	}{{
		// s.hits++ runs only if s.ready: the store of Start feeds the
		// condition and comes first (the test calls Start before the go
		// statement); Stop's store of false would skip the access and
		// is left out. The path from the test into each racing function
		// is a step per call.
		name: "guarded by a field stored elsewhere",
		test: "TestServer",
		sites: []warning.Site{
			access("guard.go", 20, 3, warning.AccessWrite, hits, "(*races.Server).Handle"),
			access("guard.go", 25, 9, warning.AccessRead, hits, "(*races.Server).Report"),
		},
		want: []string{
			"guard.go:11:2",        // s.ready = true in Start
			"races_test.go:12:2",   // go func() {...}()
			"races_test.go:13:3",   // s.Handle()
			"guard.go:20:3(write)", // s.hits++
			"races_test.go:16:6",   // s.Report()
			"guard.go:25:9(read)",  // return s.hits
		},
	}, {
		// The write is three calls below the goroutine; the call of add
		// is guarded by isOpen, whose atomic load reads the field that
		// Open stores atomically, called before Process.
		name: "reached through a call chain",
		test: "TestProcess",
		sites: []warning.Site{
			access("chain.go", 12, 2, warning.AccessWrite, total, "(*races.Stats).add"),
			access("chain.go", 36, 9, warning.AccessRead, total, "(*races.Stats).Total"),
		},
		want: []string{
			"races_test.go:25:2",   // go func() {...}()
			"chain.go:32:2",        // atomic.StoreInt32(&s.open, 1) in Open
			"races_test.go:28:3",   // Process(s, ...)
			"chain.go:27:3",        // record(s, it)
			"chain.go:17:3",        // s.add(n)
			"chain.go:12:2(write)", // s.total += n
			"races_test.go:30:6",   // s.Total()
			"chain.go:36:9(read)",  // return s.total
		},
	}, {
		// The sites in the other order: the test still reaches the
		// goroutine's path first, so the sequence is the same.
		name: "sites swapped",
		test: "TestProcess",
		sites: []warning.Site{
			access("chain.go", 36, 9, warning.AccessRead, total, "(*races.Stats).Total"),
			access("chain.go", 12, 2, warning.AccessWrite, total, "(*races.Stats).add"),
		},
		want: []string{
			"races_test.go:25:2", "chain.go:32:2", "races_test.go:28:3", "chain.go:27:3",
			"chain.go:17:3", "chain.go:12:2(write)", "races_test.go:30:6", "chain.go:36:9(read)",
		},
	}, {
		// The access is in an infinite loop (post-dominators through a
		// virtual exit). The test calls Enable after starting the
		// worker, so its store comes after the go statement.
		name: "guarded in an infinite loop",
		test: "TestWorker",
		sites: []warning.Site{
			access("loop.go", 17, 4, warning.AccessWrite, "races.Worker.count", "(*races.Worker).Run"),
			access("loop.go", 23, 9, warning.AccessRead, "races.Worker.count", "(*races.Worker).Count"),
		},
		want: []string{
			"races_test.go:37:2",  // go w.Run(jobs)
			"loop.go:10:2",        // w.enabled = true in Enable
			"loop.go:17:4(write)", // w.count += j
			"races_test.go:40:6",  // w.Count()
			"loop.go:23:9(read)",  // return w.count
		},
	}, {
		// Both goroutines start in startPair: the shared call is one
		// step, then each goroutine's go statement before its access,
		// the one started first first.
		name: "shared call prefix",
		test: "TestPair",
		sites: []warning.Site{
			access("pair.go", 18, 2, warning.AccessWrite, "races.Pair.n", "(*races.Pair).right"),
			access("pair.go", 13, 2, warning.AccessWrite, "races.Pair.n", "(*races.Pair).left"),
		},
		want: []string{
			"races_test.go:44:2",  // startPair(&Pair{})
			"pair.go:23:2",        // go p.left()
			"pair.go:13:2(write)", // p.n = 1
			"pair.go:24:2",        // go p.right()
			"pair.go:18:2(write)", // p.n = 2
		},
	}, {
		// p.n++ races with itself: one path, a read and a write at one
		// position.
		name: "same statement",
		test: "TestInc",
		sites: []warning.Site{
			access("pair.go", 30, 2, warning.AccessRead, "races.Pair.n", "(*races.Pair).Inc"),
			access("pair.go", 30, 2, warning.AccessWrite, "races.Pair.n", "(*races.Pair).Inc"),
		},
		want: []string{"races_test.go:52:3", "races_test.go:54:4", "pair.go:30:2(read)", "pair.go:30:2(write)"},
	}, {
		// The shortest path to Bump is the test's own call, which ends
		// before any goroutine starts; the path through the second go
		// statement is taken instead, so both accesses can run at once.
		name: "concurrent paths",
		test: "TestTally",
		sites: []warning.Site{
			access("tally.go", 7, 2, warning.AccessWrite, "races.Tally.n", "(*races.Tally).Bump"),
			access("tally.go", 11, 2, warning.AccessWrite, "races.Tally.n", "(*races.Tally).Drop"),
		},
		want: []string{
			"races_test.go:65:2",   // go func() { ... x.Drop() }()
			"races_test.go:67:3",   // x.Drop()
			"tally.go:11:2(write)", // t.n--
			"races_test.go:69:2",   // go func() { ... x.Bump() }()
			"races_test.go:71:3",   // x.Bump()
			"tally.go:7:2(write)",  // t.n++
		},
	}, {
		// The guard reads a local variable captured by the goroutine's
		// closure: its store "on = true" (not "on := false", which skips
		// the access) is the data definition, made while the goroutine
		// runs.
		name: "guarded by a captured variable",
		test: "TestGauge",
		sites: []warning.Site{
			access("captured.go", 10, 4, warning.AccessWrite, "races.Gauge.v", "races.runGauge$1"),
			access("captured.go", 15, 9, warning.AccessRead, "races.Gauge.v", "races.runGauge"),
		},
		want: []string{
			"races_test.go:78:2",      // runGauge(&Gauge{}, done)
			"captured.go:8:2",         // go func() {...}()
			"captured.go:14:2",        // on = true
			"captured.go:10:4(write)", // g.v++
			"captured.go:15:9(read)",  // return g.v
		},
	}, {
		// Without a test: no call steps; the guarding definitions stay.
		name: "no test",
		sites: []warning.Site{
			access("guard.go", 20, 3, warning.AccessWrite, hits, "(*races.Server).Handle"),
			access("guard.go", 25, 9, warning.AccessRead, hits, "(*races.Server).Report"),
		},
		want: []string{"guard.go:11:2", "guard.go:20:3(write)", "guard.go:25:9(read)"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &warning.Warning{ID: "race-1", Kind: warning.Race, Package: "example.com/races", Sites: tt.sites}
			seqs, err := sequence.Generate(w, f.prog, tt.test)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if len(seqs) != 1 {
				t.Fatalf("got %d sequences, want 1", len(seqs))
			}
			got := f.steps(t, seqs[0])
			t.Logf("%s\n%q", seqs[0], seqs[0].Why)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("steps:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
