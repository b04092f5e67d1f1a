package runner

import (
	"context"
	"runtime"
	"sync"

	"github.com/sourcegraph/conc/pool"

	"github.com/confirm-go/confirm/confirm/rt"
)

// RunTests runs tests under control, at most GOMAXPROCS processes at a
// time, and stops at the first test (in the order given) that ends with
// an error, a crash, a stuck or diverged replay, or a Run error.
//
// opts.Config.BudgetMillis is the budget of the whole suite: every test
// gets an equal share of the rounds the parallel processes need, so the
// suite takes about the budget in wall time.
//
// RunTests returns the results of the tests up to and including the first
// one that stopped it, in order; when that test's Run failed, the error
// is returned as well and the results end before it.
func (b *Binary) RunTests(ctx context.Context, tests []string, opts RunOptions) ([]*Result, error) {
	if len(tests) == 0 {
		return nil, nil
	}
	workers := min(runtime.GOMAXPROCS(0), len(tests))
	perTest := opts
	if opts.Config.BudgetMillis > 0 {
		rounds := (len(tests) + workers - 1) / workers
		perTest.Config.BudgetMillis = max(opts.Config.BudgetMillis/int64(rounds), 1)
	}

	var (
		mu      sync.Mutex
		stopAt  = len(tests) // index of the first test that stopped the suite
		cancels = make([]context.CancelFunc, len(tests))
		results = make([]*Result, len(tests))
		errs    = make([]error, len(tests))
	)
	stop := func(i int) {
		mu.Lock()
		defer mu.Unlock()
		if i >= stopAt {
			return
		}
		stopAt = i
		for j := i + 1; j < len(tests); j++ {
			if cancels[j] != nil {
				cancels[j]()
			}
		}
	}
	p := pool.New().WithMaxGoroutines(workers)
	for i, test := range tests {
		p.Go(func() {
			mu.Lock()
			if i > stopAt {
				mu.Unlock()
				return
			}
			tctx, cancel := context.WithCancel(ctx)
			cancels[i] = cancel
			mu.Unlock()
			defer cancel()

			res, err := b.Run(tctx, test, perTest)
			results[i], errs[i] = res, err
			if err != nil || stops(res) {
				stop(i)
			}
		})
	}
	p.Wait()

	var out []*Result
	for i := range tests {
		if errs[i] != nil {
			return out, errs[i]
		}
		if results[i] == nil {
			break
		}
		out = append(out, results[i])
		if stops(results[i]) {
			break
		}
	}
	return out, nil
}

// stops reports whether res ends a suite: an error found, a crash, a
// stuck or diverged run. A test that fails only without interleaving, or
// cannot run twice in one process, does not.
func stops(res *Result) bool {
	return res.Verdict != rt.VerdictNone && res.Verdict != rt.VerdictUnrepeatable
}

// Stops reports whether res ends a suite (see RunTests).
func Stops(res *Result) bool { return stops(res) }

// Total sums the statistics of results.
func Total(results []*Result) rt.Stats {
	var s rt.Stats
	for _, r := range results {
		s.Executions += r.Stats.Executions
		s.Steps += r.Stats.Steps
		s.Seconds += r.Stats.Seconds
		s.ForeignOps += r.Stats.ForeignOps
		s.Truncated += r.Stats.Truncated
		s.OverBudget += r.Stats.OverBudget
		s.Ignored += r.Stats.Ignored
	}
	return s
}
