package sequence_test

import (
	"reflect"
	"sync"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/sequence"
)

// TestGeneratorConcurrent generates the sequences of several warnings
// from one Generator at once and compares them with one at a time (run
// with -race to check the Generator's caches).
func TestGeneratorConcurrent(t *testing.T) {
	f := load(t, "races")
	site := func(file string, line, col int, a warning.Access) warning.Site {
		return warning.Site{Position: f.at(file, line, col), Access: a, Object: "x"}
	}
	type job struct {
		w    *warning.Warning
		test string
	}
	race := func(test string, a, b warning.Site) job {
		return job{&warning.Warning{ID: test, Kind: warning.Race, Sites: []warning.Site{a, b}}, test}
	}
	jobs := []job{
		race("TestServer", site("guard.go", 20, 3, warning.AccessWrite), site("guard.go", 25, 9, warning.AccessRead)),
		race("TestProcess", site("chain.go", 12, 2, warning.AccessWrite), site("chain.go", 36, 9, warning.AccessRead)),
		race("TestWorker", site("loop.go", 17, 4, warning.AccessWrite), site("loop.go", 23, 9, warning.AccessRead)),
		race("TestTally", site("tally.go", 7, 2, warning.AccessWrite), site("tally.go", 11, 2, warning.AccessWrite)),
	}
	want := make([][]sequence.Sequence, len(jobs))
	for i, j := range jobs {
		seqs, err := sequence.Generate(j.w, f.prog, j.test)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = seqs
	}
	gen := sequence.NewGenerator(f.prog)
	got := make([][]sequence.Sequence, len(jobs))
	var wg sync.WaitGroup
	for round := 0; round < 3; round++ {
		for i, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				seqs, err := gen.Generate(j.w, j.test)
				if err != nil {
					t.Error(err)
					return
				}
				if round == 0 {
					got[i] = seqs
				}
			}()
		}
	}
	wg.Wait()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("concurrent sequences differ:\n got %v\nwant %v", got, want)
	}
}
