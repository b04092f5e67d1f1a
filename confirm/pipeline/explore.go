package pipeline

import (
	"context"
	"time"

	"github.com/sourcegraph/conc/pool"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// ExploreBy names exploration in Bug.FoundBy: the bug was found by running
// a test undirected, not while searching for a warning.
const ExploreBy = "exploration"

// withExploration adds a plan, without warnings, for every package of
// tested that has none, so that its tests are built and explored too.
func withExploration(plans []*packagePlan, tested []string) []*packagePlan {
	have := make(map[string]bool, len(plans))
	for _, p := range plans {
		p.explore = true
		have[p.pkgPath] = true
	}
	for _, path := range tested {
		if !have[path] {
			plans = append(plans, &packagePlan{pkgPath: path, pattern: path, explore: true})
		}
	}
	return plans
}

// exploreAll runs every test of the plans' packages undirected (pct, no
// sequence, no warning wanted), at most opts.Parallel at a time, each
// package within opts.ExploreBudget shared by its tests, and keeps the failures
// as bugs of the package. A failure its test also has without preemption
// is no concurrency bug (the runtime's serial executions filter it).
func exploreAll(ctx context.Context, opts Options, plans []*packagePlan) {
	runs := pool.New().WithMaxGoroutines(opts.Parallel)
	for i, p := range plans {
		if p.bin == nil || len(p.bin.Tests) == 0 {
			continue
		}
		share := max(opts.ExploreBudget/time.Duration(len(p.bin.Tests)), 200*time.Millisecond)
		for j, test := range p.bin.Tests {
			runs.Go(func() {
				cfg := rt.Config{
					Strategy:     "pct",
					Seed:         opts.Seed + int64(i)*7919 + int64(j)*104729,
					MaxSteps:     opts.MaxSteps,
					BudgetMillis: share.Milliseconds(),
					NoLeaks:      opts.NoLeaks,
				}
				res, err := p.run(ctx, p.bin, test, runner.RunOptions{Config: cfg, Grace: opts.Grace})
				if err != nil || res.Verdict != rt.VerdictError || res.Failure == nil || res.Token == "" {
					return // hangs and crashes of exploration are not bugs found
				}
				p.keepExplored(res)
			})
		}
	}
	runs.Wait()
}

// keepExplored keeps the failure of an exploration run as a bug of p.
func (p *packagePlan) keepExplored(res *runner.Result) {
	b := &Bug{
		Signature:  res.Failure.Signature(),
		Package:    p.bin.Package,
		PackageArg: p.arg,
		Test:       res.Test,
		Result:     res,
		Token:      Token{Locations: p.locs, Runner: res.Token}.Encode(p.bin.Dir),
		FoundBy:    []string{ExploreBy},
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.explored = append(p.explored, b)
}
