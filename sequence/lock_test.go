package sequence_test

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/testselect"
	"github.com/confirm-go/confirm/sequence"
)

// fixture is a loaded fixture module under testdata.
type fixture struct {
	dir  string
	prog *testselect.Program
}

func load(t testing.TB, dir string) *fixture {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := testselect.Load(context.Background(), abs, "./...", nil)
	if err != nil {
		t.Fatalf("Load %s: %v", dir, err)
	}
	return &fixture{dir: abs, prog: prog}
}

// at returns the position file:line:col of the fixture.
func (f *fixture) at(file string, line, col int) token.Position {
	return token.Position{Filename: filepath.Join(f.dir, file), Line: line, Column: col}
}

// steps formats the steps of seq as file:line:col, with the kind for
// reads and writes, relative to the fixture.
func (f *fixture) steps(t testing.TB, seq sequence.Sequence) []string {
	t.Helper()
	if len(seq.Why) != len(seq.Steps) {
		t.Errorf("%d steps but %d reasons", len(seq.Steps), len(seq.Why))
	}
	var out []string
	for i, s := range seq.Steps {
		rel, err := filepath.Rel(f.dir, s.File)
		if err != nil {
			t.Fatal(err)
		}
		str := fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), s.Line, s.Col)
		if s.Kind != sequence.KindObserve {
			str += "(" + s.Kind + ")"
		}
		if i < len(seq.Why) && seq.Why[i] == "" {
			t.Errorf("step %d (%s) has no reason", i, str)
		}
		out = append(out, str)
	}
	return out
}

// lock returns a lock site.
func lock(pos token.Position, access warning.Access, object, fn string, held ...string) warning.Site {
	return warning.Site{Position: pos, Access: access, Object: object, Func: fn, Held: held, Role: string(access) + " " + object}
}

func TestGenerateLocks(t *testing.T) {
	f := load(t, "locks")
	const (
		A, B    = "locks.muA", "locks.muB"
		account = "locks.Account.mu"
		counter = "locks.Counter.mu"
		cache   = "locks.Cache.mu"
		queue   = "locks.Queue.mu"
		L, R    = warning.AccessLock, warning.AccessRLock
	)
	tests := []struct {
		name  string
		kind  warning.Kind
		test  string
		sites []warning.Site
		want  [][]string
	}{{
		// The paper's l0 → l9 → l1 → l18, positions normalized from the
		// method name to the start of the call.
		name: "AB-BA",
		kind: warning.LockOrderCycle,
		test: "TestABBA",
		sites: []warning.Site{
			lock(f.at("abba.go", 14, 6), L, A, "locks.pathAB"),
			lock(f.at("abba.go", 23, 6), L, B, "locks.pathBA"),
			lock(f.at("abba.go", 15, 6), L, B, "locks.pathAB", A),
			lock(f.at("abba.go", 24, 6), L, A, "locks.pathBA", B),
		},
		want: [][]string{{"abba.go:14:2", "abba.go:23:2", "abba.go:15:2", "abba.go:24:2"}},
	}, {
		// The order is derived from Held, not from the order of the
		// sites: the primary site's path (B then A) goes first.
		name: "AB-BA shuffled",
		kind: warning.LockOrderCycle,
		sites: []warning.Site{
			lock(f.at("abba.go", 24, 2), L, A, "locks.pathBA", B),
			lock(f.at("abba.go", 14, 2), L, A, "locks.pathAB"),
			lock(f.at("abba.go", 15, 2), L, B, "locks.pathAB", A),
			lock(f.at("abba.go", 23, 2), L, B, "locks.pathBA"),
		},
		want: [][]string{{"abba.go:23:2", "abba.go:14:2", "abba.go:24:2", "abba.go:15:2"}},
	}, {
		// A cycle of three classes: the three first acquisitions, then
		// the three nested ones, in cycle order.
		name: "three classes",
		kind: warning.LockOrderCycle,
		test: "TestCycle3",
		sites: []warning.Site{
			lock(f.at("cycle3.go", 9, 2), L, "locks.muC", "locks.pathCD"),
			lock(f.at("cycle3.go", 16, 2), L, "locks.muD", "locks.pathDE"),
			lock(f.at("cycle3.go", 23, 2), L, "locks.muE", "locks.pathEC"),
			lock(f.at("cycle3.go", 10, 2), L, "locks.muD", "locks.pathCD", "locks.muC"),
			lock(f.at("cycle3.go", 17, 2), L, "locks.muE", "locks.pathDE", "locks.muD"),
			lock(f.at("cycle3.go", 24, 2), L, "locks.muC", "locks.pathEC", "locks.muE"),
		},
		want: [][]string{{"cycle3.go:9:2", "cycle3.go:16:2", "cycle3.go:23:2", "cycle3.go:10:2", "cycle3.go:17:2", "cycle3.go:24:2"}},
	}, {
		// Two instances of one class: both paths run the same code.
		name: "same-class nesting",
		kind: warning.LockOrderCycle,
		test: "TestTransfer",
		sites: []warning.Site{
			lock(f.at("nest.go", 12, 2), L, account, "locks.transfer"),
			lock(f.at("nest.go", 14, 2), L, account, "locks.transfer", account),
		},
		want: [][]string{{"nest.go:12:2", "nest.go:12:2", "nest.go:14:2", "nest.go:14:2"}},
	}, {
		// The second lock is in total, called from Add while held.
		name: "double lock through a call",
		kind: warning.DoubleLock,
		test: "TestCounter",
		sites: []warning.Site{
			lock(f.at("double.go", 12, 2), L, counter, "(*locks.Counter).Add"),
			{Position: f.at("double.go", 21, 7), Access: L, Object: counter, Func: "(*locks.Counter).Add",
				Chain: []string{"(*locks.Counter).total"}, Held: []string{counter}},
		},
		want: [][]string{{"double.go:12:2", "double.go:21:2"}},
	}, {
		// An analyzer that reports the second lock at the call reaching
		// it: the call expression starts at c.total.
		name: "double lock at the call",
		kind: warning.DoubleLock,
		sites: []warning.Site{
			{Position: f.at("double.go", 14, 7), Access: L, Object: counter, Func: "(*locks.Counter).Add",
				Chain: []string{"(*locks.Counter).total"}, Held: []string{counter}},
			lock(f.at("double.go", 12, 2), L, counter, "(*locks.Counter).Add"),
		},
		want: [][]string{{"double.go:12:2", "double.go:14:5"}},
	}, {
		// The call reaching the second lock is on the continuation line
		// of a return statement: the observe step moves to the start of
		// the statement, where an observe point can go.
		name: "double lock on a continuation line",
		kind: warning.DoubleLock,
		sites: []warning.Site{
			lock(f.at("double.go", 29, 2), L, counter, "(*locks.Counter).AddTwice"),
			{Position: f.at("double.go", 32, 10), Access: L, Object: counter, Func: "(*locks.Counter).AddTwice",
				Chain: []string{"(*locks.Counter).total"}, Held: []string{counter}},
		},
		want: [][]string{{"double.go:29:2", "double.go:31:2"}},
	}, {
		// The writer's Lock of Cache.mu (in Put) goes between the two
		// RLocks; Other.mu's Lock is another class, and Reset, the other
		// writer, is not run by TestCache.
		name: "RWR",
		kind: warning.RWRDeadlock,
		test: "TestCache",
		sites: []warning.Site{
			lock(f.at("rwr.go", 13, 2), R, cache, "(*locks.Cache).Get"),
			{Position: f.at("rwr.go", 19, 2), Access: R, Object: cache, Func: "(*locks.Cache).Get",
				Chain: []string{"(*locks.Cache).size"}, Held: []string{cache}},
		},
		want: [][]string{{"rwr.go:13:2", "rwr.go:25:2", "rwr.go:19:2"}},
	}, {
		// Two writers: Reset is called by the test itself (one step),
		// Put in a goroutine it starts (two steps). Only Put can wait
		// between the two RLocks, so its sequence comes first.
		name: "RWR writer in a goroutine first",
		kind: warning.RWRDeadlock,
		test: "TestCacheReset",
		sites: []warning.Site{
			lock(f.at("rwr.go", 13, 2), R, cache, "(*locks.Cache).Get"),
			lock(f.at("rwr.go", 19, 2), R, cache, "(*locks.Cache).size", cache),
		},
		want: [][]string{
			{"rwr.go:13:2", "rwr.go:25:2", "rwr.go:19:2"},
			{"rwr.go:13:2", "rwr.go:40:2", "rwr.go:19:2"},
		},
	}, {
		// Without a test, both writers, by position.
		name: "RWR without a test",
		kind: warning.RWRDeadlock,
		sites: []warning.Site{
			lock(f.at("rwr.go", 13, 2), R, cache, "(*locks.Cache).Get"),
			lock(f.at("rwr.go", 19, 2), R, cache, "(*locks.Cache).size", cache),
		},
		want: [][]string{
			{"rwr.go:13:2", "rwr.go:25:2", "rwr.go:19:2"},
			{"rwr.go:13:2", "rwr.go:40:2", "rwr.go:19:2"},
		},
	}, {
		// A local RWMutex captured by the writer's closure: the class
		// follows the free variable to the captured variable.
		name: "RWR on a captured local",
		kind: warning.RWRDeadlock,
		test: "TestLocalRWR",
		sites: []warning.Site{
			lock(f.at("local.go", 15, 2), R, "mu", "locks.localRWR"),
			lock(f.at("local.go", 16, 2), R, "mu", "locks.localRWR", "mu"),
		},
		want: [][]string{{"local.go:15:2", "local.go:11:3", "local.go:16:2"}},
	}, {
		// The first RLock's position holds no lock call (an analyzer
		// pointing elsewhere): no writer is searched for, the two RLocks
		// remain and the reason says why.
		name: "RWR without a class",
		kind: warning.RWRDeadlock,
		sites: []warning.Site{
			lock(f.at("rwr.go", 15, 9), R, cache, "(*locks.Cache).Get"),
			lock(f.at("rwr.go", 19, 2), R, cache, "(*locks.Cache).size", cache),
		},
		want: [][]string{{"rwr.go:15:9", "rwr.go:19:2"}},
	}, {
		// The leaking return, then a later acquisition: Push's, then
		// Pop's own executed again.
		name: "lock leak",
		kind: warning.LockLeak,
		test: "TestQueue",
		sites: []warning.Site{
			lock(f.at("leak.go", 12, 2), L, queue, "(*locks.Queue).Pop"),
			{Position: f.at("leak.go", 14, 3), Access: warning.AccessReturn, Object: queue, Func: "(*locks.Queue).Pop"},
		},
		want: [][]string{
			{"leak.go:12:2", "leak.go:14:3", "leak.go:23:2"},
			{"leak.go:12:2", "leak.go:14:3", "leak.go:12:2"},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &warning.Warning{ID: tt.name, Kind: tt.kind, Package: "example.com/locks", Sites: tt.sites}
			seqs, err := sequence.Generate(w, f.prog, tt.test)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			var got [][]string
			for _, s := range seqs {
				if s.WarningID != tt.name || s.Test != tt.test {
					t.Errorf("sequence for %q/%q, want %q/%q", s.WarningID, s.Test, tt.name, tt.test)
				}
				got = append(got, f.steps(t, s))
				t.Logf("%s\n%q", s, s.Why)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("sequences:\n got %q\nwant %q", got, tt.want)
				for _, s := range seqs {
					t.Logf("%s: %q", s, s.Why)
				}
			}
		})
	}
}
