package rt

import (
	"go/ast"
	"go/parser"
	"go/token"
	"runtime"
	"slices"
	"testing"
)

// The goroutines of pfsmOrder. Their tables are built from this file's
// syntax by pfsmTables: keep their Observe calls one per line.

func pfsmA(flag *Int32, wg *WaitGroup, k int) {
	defer wg.Done()
	for range k {
		Observe(locNoise)
	}
	Observe(locSet)
	flag.Store(1)
}

func pfsmB(flag *Int32, wg *WaitGroup, bug bool) {
	defer wg.Done()
	Observe(locCheck)
	if flag.Load() == 1 && bug {
		panic("B saw A's flag")
	}
}

func pfsmNoise(wg *WaitGroup, k int) {
	defer wg.Done()
	for range k {
		Observe(locNoise)
	}
}

// pfsmOrder is rareOrder with named goroutine functions.
func pfsmOrder(k, others int) func(*testing.T) {
	return func(*testing.T) { pfsmBody(k, others, true) }
}

// pfsmBody runs A, B and others noise goroutines; B panics when it sees
// A's flag if bug is set.
func pfsmBody(k, others int, bug bool) {
	var flag Int32
	var wg WaitGroup
	wg.Add(2 + others)
	Go(func() { pfsmA(&flag, &wg, k) })
	Go(func() { pfsmB(&flag, &wg, bug) })
	for range others {
		Go(func() { pfsmNoise(&wg, k) })
	}
	wg.Wait()
}

// pfsmTables builds distance tables for pfsmOrder by hand: one node per
// source line of pfsmA, pfsmB and pfsmNoise plus one entry node each, each
// line one unit from the next; target 0 is pfsmA's Observe(locSet) and
// target 1 pfsmB's Observe(locCheck), reachable only from the lines of
// their own function above them.
func pfsmTables(t testing.TB) *Distances {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := &Distances{Files: []string{file}}
	targets := map[string]string{"pfsmA": "locSet", "pfsmB": "locCheck"}
	d.Targets = make([]Target, 2)
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || (fd.Name.Name != "pfsmA" && fd.Name.Name != "pfsmB" && fd.Name.Name != "pfsmNoise") {
			continue
		}
		start, end := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
		target := 0
		ast.Inspect(fd, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 1 {
				if id, ok := call.Args[0].(*ast.Ident); ok && id.Name == targets[fd.Name.Name] {
					target = fset.Position(call.Pos()).Line
				}
			}
			return true
		})
		fn := Func{Name: fd.Name.Name, Start: start, End: end, Entry: int32(len(d.End))}
		d.End = append(d.End, int32(end-start))
		ti := slices.Index([]string{"pfsmA", "pfsmB"}, fd.Name.Name)
		if ti >= 0 {
			d.Targets[ti].Line = target
			d.Targets[ti].Nodes = append(d.Targets[ti].Nodes, fn.Entry)
			d.Targets[ti].Dist = append(d.Targets[ti].Dist, int32(target-start))
		}
		for line := start + 1; line < end; line++ {
			node := int32(len(d.End))
			fn.Lines = append(fn.Lines, int32(line))
			fn.Nodes = append(fn.Nodes, node)
			d.End = append(d.End, int32(end-line))
			if ti >= 0 && line <= target {
				d.Targets[ti].Nodes = append(d.Targets[ti].Nodes, node)
				d.Targets[ti].Dist = append(d.Targets[ti].Dist, int32(target-line))
			}
		}
		d.Funcs = append(d.Funcs, fn)
	}
	for i := range d.Targets {
		d.Targets[i].File = file
		if d.Targets[i].Line == 0 {
			t.Fatalf("target %d not found in %s", i, file)
		}
	}
	if len(d.Funcs) != 3 {
		t.Fatalf("found %d of the 3 goroutine functions", len(d.Funcs))
	}
	return d
}

// TestMetaPFSM: with the distance heuristic the search runs goroutine A,
// the only one that can reach the first key location, to it, and then B
// to the second: it finds the rare order in a few executions for every
// seed, where random search does not.
func TestMetaPFSM(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hundreds of executions")
	}
	const k, others, seeds = 20, 2, 5
	body := pfsmOrder(k, others)
	dist := pfsmTables(t)
	found := map[string]int{}
	for seed := range int64(seeds) {
		for _, c := range []Config{
			{Strategy: "meta", Heuristic: "pfsm", Distances: dist, MaxExecs: 20},
			{Strategy: "random", MaxExecs: 200},
		} {
			c.Seed, c.Sequence, c.Locations = seed, []int{locSet, locCheck}, metaLocs
			res := search(t, c, body)
			if res.Verdict == VerdictError && res.Failure.Kind == FailPanic {
				found[c.Strategy]++
			} else if res.Verdict != VerdictNone {
				t.Fatalf("%s seed %d: verdict %q failure %+v error %s", c.Strategy, seed, res.Verdict, res.Failure, res.Error)
			}
		}
	}
	t.Logf("error density over %d seeds: %v", seeds, found)
	if found["meta"] != seeds || found["random"] > 1 {
		t.Errorf("found by meta+pfsm (20 executions) with %d of %d seeds, by random (200 executions) with %d", found["meta"], seeds, found["random"])
	}
}

// TestMetaPFSMDistances checks the hand-built tables against real stacks:
// goroutine A approaches target 0, the others are at Infinity.
func TestMetaPFSMDistances(t *testing.T) {
	dist := pfsmTables(t)
	if err := dist.Compile(); err != nil {
		t.Fatal(err)
	}
	h := map[int][]int32{} // goroutine -> distances to target 0 seen
	s := &pfsmProbe{random: random{seed: 1}, dist: dist, h: h}
	cfg := &Config{Strategy: "custom", Locations: metaLocs}
	capturePCs.Store(true)
	defer capturePCs.Store(false)
	s.Begin(0)
	e := newExec(cfg, 0, s)
	t.Run("exec", func(st *testing.T) { e.runBody(st, pfsmOrder(3, 1)) })
	a, b := h[1], h[2]
	t.Logf("distances to target 0: A %v, B %v", a, b)
	if len(a) == 0 || slices.Contains(a, Infinity) || a[len(a)-1] != 0 {
		t.Errorf("goroutine A's distances %v: want finite, ending at 0", a)
	}
	if len(b) == 0 || slices.ContainsFunc(b, func(x int32) bool { return x != Infinity }) {
		t.Errorf("goroutine B's distances %v: want Infinity", b)
	}
}

// pfsmProbe runs goroutines at random and records the distances of A
// and B to target 0 (A's until it is at it).
type pfsmProbe struct {
	random
	dist *Distances
	h    map[int][]int32
	done bool
}

func (s *pfsmProbe) NeedsStacks() bool { return true }

func (s *pfsmProbe) Pick(d *Decision) int {
	for _, c := range d.Enabled {
		if c.Op != "start" && (c.G == 1 && !s.done || c.G == 2) {
			s.h[c.G] = append(s.h[c.G], s.dist.FromPCs(0, d.Stack(c.G)))
		}
		if c.Loc == locSet {
			s.done = true
		}
	}
	return s.random.Pick(d)
}

// BenchmarkExecPFSM compares the cost per scheduling point of random
// search and of the meta strategy with the random and pfsm heuristics
// (stacks captured and looked up in the tables) on pfsmBody without its
// bug.
func BenchmarkExecPFSM(b *testing.B) {
	body := func() { pfsmBody(20, 2, false) }
	for _, cfg := range []Config{
		{Strategy: "random"},
		{Strategy: "meta", Heuristic: "random"},
		{Strategy: "meta", Heuristic: "pfsm", Distances: pfsmTables(b)},
	} {
		cfg.Seed, cfg.Sequence, cfg.Locations = 1, []int{locSet, locCheck}, metaLocs
		b.Run(cfg.Strategy+"+"+cfg.Heuristic, func(b *testing.B) { execBench(b, &cfg, body) })
	}
}
