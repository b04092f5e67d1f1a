package sequence_test

import (
	"context"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/instrument"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/sequence"
)

// TestStepsInstrumentable hands the steps of generated sequences to the
// instrumenter and checks that it places every one of them: the
// positions are ones an observe, read or write point can go before.
func TestStepsInstrumentable(t *testing.T) {
	if testing.Short() {
		t.Skip("instruments the fixtures")
	}
	type gen struct {
		test  string
		kind  warning.Kind
		sites []warning.Site
	}
	site := func(f *fixture, file string, line, col int, a warning.Access, held ...string) warning.Site {
		return warning.Site{Position: f.at(file, line, col), Access: a, Object: "o", Held: held}
	}
	races, locks := load(t, "races"), load(t, "locks")
	fixtures := []struct {
		f    *fixture
		gens []gen
	}{{races, []gen{
		{"TestServer", warning.Race, []warning.Site{site(races, "guard.go", 20, 3, warning.AccessWrite), site(races, "guard.go", 25, 9, warning.AccessRead)}},
		{"TestProcess", warning.Race, []warning.Site{site(races, "chain.go", 12, 2, warning.AccessWrite), site(races, "chain.go", 36, 9, warning.AccessRead)}},
		{"TestWorker", warning.Race, []warning.Site{site(races, "loop.go", 17, 4, warning.AccessWrite), site(races, "loop.go", 23, 9, warning.AccessRead)}},
		{"TestInc", warning.Race, []warning.Site{site(races, "pair.go", 30, 2, warning.AccessRead), site(races, "pair.go", 30, 2, warning.AccessWrite)}},
	}}, {locks, []gen{
		{"TestABBA", warning.LockOrderCycle, []warning.Site{
			site(locks, "abba.go", 14, 6, warning.AccessLock), site(locks, "abba.go", 23, 6, warning.AccessLock),
			site(locks, "abba.go", 15, 6, warning.AccessLock, "o"), site(locks, "abba.go", 24, 6, warning.AccessLock, "o"),
		}},
		{"TestCache", warning.RWRDeadlock, []warning.Site{site(locks, "rwr.go", 13, 2, warning.AccessRLock), site(locks, "rwr.go", 15, 23, warning.AccessRLock, "o")}},
		{"TestCounter", warning.DoubleLock, []warning.Site{site(locks, "double.go", 29, 2, warning.AccessLock), site(locks, "double.go", 32, 10, warning.AccessLock, "o")}},
		{"TestQueue", warning.LockLeak, []warning.Site{site(locks, "leak.go", 12, 2, warning.AccessLock), {Position: locks.at("leak.go", 14, 3), Access: warning.AccessReturn}}},
	}}}
	for _, fx := range fixtures {
		var locs []rt.Location
		for _, g := range fx.gens {
			seqs, err := sequence.Generate(&warning.Warning{ID: g.test, Kind: g.kind, Sites: g.sites}, fx.f.prog, g.test)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range seqs {
				locs = append(locs, s.Steps...)
			}
		}
		res, err := instrument.Instrument(context.Background(), instrument.Request{Dir: fx.f.dir, Package: ".", Locations: locs})
		if err != nil {
			t.Fatalf("Instrument %s: %v", fx.f.dir, err)
		}
		for _, n := range res.Notes {
			if strings.Contains(n, "not found") {
				t.Errorf("%s", n)
			}
		}
		if err := res.Remove(); err != nil {
			t.Error(err)
		}
		t.Logf("%s: %d steps instrumented", fx.f.dir, len(locs))
	}
}
