package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
	"github.com/confirm-go/confirm/confirm/trials"
	"github.com/confirm-go/confirm/pfsm"
)

// A search is one column of the tables: a strategy and, for the meta
// strategy, its secondary heuristic.
type search struct {
	Name      string // "random", "pct", "meta+pfsm", ...
	Strategy  string
	Heuristic string
}

func parseSearch(name string) (search, error) {
	switch name {
	case "random", "pct":
		return search{Name: name, Strategy: name}, nil
	case "meta+pfsm", "meta+random", "meta+prefer":
		return search{Name: name, Strategy: "meta", Heuristic: name[len("meta+"):]}, nil
	}
	return search{}, fmt.Errorf("unknown search %q (want random, pct, meta+pfsm, meta+random or meta+prefer)", name)
}

// A row is the outcome of one search on one configuration.
type row struct {
	Subject subject
	Config  config
	Locs    int
	Search  search
	// Unavailable, when not empty, says why the search could not run.
	Unavailable string
	Summary     trials.Summary
}

// benchSubject builds s's package once and runs every search on the
// selected configurations.
func benchSubject(ctx context.Context, o *options, dir string, s subject) ([]row, error) {
	src, err := readSource(dir, s)
	if err != nil {
		return nil, err
	}
	configs, err := pickConfigs(src.Configs, o.configs)
	if err != nil || len(configs) == 0 {
		return nil, err
	}
	logf(o.progress, "%s: building ./%s with %d key locations\n", s.Name, s.Pkg, len(src.Keys))
	bin, err := runner.Build(ctx, runner.BuildOptions{Dir: dir, Package: "./" + s.Pkg, Locations: src.Keys})
	if err != nil {
		return nil, fmt.Errorf("subject %s: %w", s.Name, err)
	}
	defer func() { _ = bin.Close() }() // a temporary directory
	seq, err := sequence(bin, src.Keys)
	if err != nil {
		return nil, fmt.Errorf("subject %s: %w", s.Name, err)
	}
	var dist *rt.Distances
	var rows []row
	for _, c := range configs {
		for _, sr := range o.searchList {
			r := row{Subject: s, Config: c, Locs: len(src.Keys), Search: sr}
			// The paper measures the strategies alone: no serial
			// executions before each search.
			cfg := rt.Config{Strategy: sr.Strategy, Seed: o.seed, NoSerial: true}
			if sr.Strategy == "meta" {
				if dist == nil {
					if dist, err = distances(dir, s, src.Keys); err != nil {
						return nil, err
					}
				}
				cfg.Sequence, cfg.Heuristic, cfg.Distances = seq, sr.Heuristic, dist
				cfg.Prefer = src.Prefer
			}
			spec := trials.Spec{
				Test:   c.Test,
				Config: cfg,
				Budget: trials.Budget{Executions: o.execs, Steps: o.steps, Wall: o.wall},
				Expect: s.Expect,
			}
			if why := probe(ctx, bin, spec); why != "" {
				r.Unavailable = why
				logf(o.progress, "  %s %s: not available: %s\n", c.Label(s), sr.Name, why)
				rows = append(rows, r)
				continue
			}
			if r.Summary, err = trials.RunBinary(ctx, bin, spec, o.trials); err != nil {
				return nil, fmt.Errorf("%s %s: %w", c.Label(s), sr.Name, err)
			}
			logf(o.progress, "  %s %s: density %.2f, avg steps %.0f, %s\n",
				c.Label(s), sr.Name, r.Summary.Density, r.Summary.Steps.Avg, r.Summary.Wall.Round(time.Millisecond))
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// sequence returns the indexes in bin.Locations of keys, in order.
func sequence(bin *runner.Binary, keys []rt.Location) ([]int, error) {
	var seq []int
	for _, k := range keys {
		found := -1
		for i, l := range bin.Locations {
			if l.Kind == "observe" && l.Line == k.Line && sameFile(l.File, k.File) {
				found = i
				break
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("the instrumented binary has no observe point at %s:%d", k.File, k.Line)
		}
		seq = append(seq, found)
	}
	return seq, nil
}

// distances computes the pfsm tables of keys over s's package and its
// tests, as loaded from source (not instrumented).
func distances(dir string, s subject, keys []rt.Location) (*rt.Distances, error) {
	pkgs, err := pfsm.Load(dir, true, "./"+s.Pkg)
	if err != nil {
		return nil, fmt.Errorf("subject %s: loading for pfsm: %w", s.Name, err)
	}
	var targets []pfsm.Target
	for _, k := range keys {
		targets = append(targets, pfsm.Target{File: k.File, Line: k.Line})
	}
	d, err := pfsm.Build(pkgs, targets)
	if err != nil {
		return nil, fmt.Errorf("subject %s: pfsm: %w", s.Name, err)
	}
	return d, nil
}

// probe runs one execution of spec's search and returns why the runtime
// rejected it, or "" when it runs.
func probe(ctx context.Context, bin *runner.Binary, spec trials.Spec) string {
	cfg := spec.Config
	cfg.MaxExecs = 1
	if _, err := bin.Run(ctx, spec.Test, runner.RunOptions{Config: cfg}); err != nil {
		return err.Error()
	}
	return ""
}

// logf writes a progress line; progress is best effort.
func logf(w io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(w, format, args...)
}
