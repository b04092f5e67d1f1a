package runner_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/confirm-go/confirm/confirm/rt"
)

// BenchmarkOverhead measures what instrumentation costs a test suite: the
// wall time of the package's test binary built plainly (as go test builds
// it), of the instrumented binary run without CONFIRM_CONFIG (the
// instrumentation's fast paths), and of the instrumented binary with one
// controlled execution of every test (Config.Test empty, MaxExecs 1). It
// reports the plain time and both ratios, each of the fastest of the
// iterations, which the machine's other load disturbs least:
//
//	go test -run '^$' -bench Overhead -benchtime 10x ./confirm/runner
func BenchmarkOverhead(b *testing.B) {
	for _, fx := range []struct {
		module, pkg string
		accesses    bool
	}{
		{"bench", "wordcount", true},
		{"bench", "wordcount", false},
		{"bank", "abbafixed", true},
		{"pipeline", "eventsfixed", true},
	} {
		name := fx.module + "/" + fx.pkg
		if !fx.accesses {
			name += "/races=false"
		}
		b.Run(name, func(b *testing.B) {
			dir := fixtureDir(b, fx.module)
			plain := filepath.Join(b.TempDir(), "plain.test")
			cmd := exec.Command("go", "test", "-c", "-o", plain, "./"+fx.pkg)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("go test -c: %v\n%s", err, out)
			}
			bin := build(b, fx.module, fx.pkg, fx.accesses)
			cfg := filepath.Join(b.TempDir(), "config.json")
			data, err := json.Marshal(rt.Config{
				Strategy:   "random",
				Seed:       1,
				MaxExecs:   1,
				ResultFile: filepath.Join(b.TempDir(), "result.json"),
				Locations:  bin.Locations,
			})
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(cfg, data, 0o644); err != nil {
				b.Fatal(err)
			}
			// The minimum of each is the least disturbed by other load.
			tPlain, tInstr, tControlled := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
			for b.Loop() {
				tPlain = min(tPlain, timeTests(b, plain, bin.PkgDir, ""))
				tInstr = min(tInstr, timeTests(b, bin.Path, bin.PkgDir, ""))
				tControlled = min(tControlled, timeTests(b, bin.Path, bin.PkgDir, cfg))
			}
			b.ReportMetric(float64(tPlain.Microseconds())/1000, "plain-ms")
			b.ReportMetric(float64(tInstr)/float64(tPlain), "instrumented/plain")
			b.ReportMetric(float64(tControlled)/float64(tPlain), "controlled/plain")
		})
	}
}

// timeTests runs every test of a test binary once and returns its wall
// time; config, when not empty, is the CONFIRM_CONFIG file.
func timeTests(b *testing.B, path, dir, config string) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "-test.count=1")
	cmd.Dir = dir
	cmd.Env = os.Environ()
	if config != "" {
		cmd.Env = append(cmd.Env, rt.EnvConfig+"="+config)
	}
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		b.Fatalf("%s (config %q): %v\n%s", path, config, err, out)
	}
	return d
}

// BenchmarkFind measures how many executions each strategy needs to find
// the bug of each buggy fixture, one search per seed (seeds 1..b.N), and
// reports the mean executions and wall seconds per search and the share
// of searches that found it within the budget:
//
//	go test -run '^$' -bench Find -benchtime 10x ./confirm/runner
func BenchmarkFind(b *testing.B) {
	for _, fx := range fixtures {
		bin := build(b, fx.module, fx.pkg, true)
		for _, strategy := range []string{"random", "pct"} {
			b.Run(fx.module+"/"+fx.pkg+"/"+strategy, func(b *testing.B) {
				var execs, found int
				var secs float64
				seed := int64(0)
				for b.Loop() {
					seed++
					opts := search(seed, 10*time.Second)
					opts.Config.Strategy = strategy
					res, err := bin.Run(context.Background(), bin.Tests[0], opts)
					if err != nil {
						b.Fatal(err)
					}
					execs += res.Stats.Executions
					secs += res.Stats.Seconds
					if res.Verdict == rt.VerdictError {
						found++
					}
				}
				b.ReportMetric(float64(execs)/float64(b.N), "execs/search")
				b.ReportMetric(secs/float64(b.N), "s/search")
				b.ReportMetric(float64(found)/float64(b.N), "found/search")
			})
		}
	}
}
