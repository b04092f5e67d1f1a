package rt

import (
	"fmt"
	"math"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Infinity is the distance of a position from which a target cannot be
// reached.
const Infinity = math.MaxInt32

// Distances holds the polymorphic distance tables the driver precomputes
// (package pfsm) for the key locations of a sequence, and answers, from a
// goroutine's call stack, how far the goroutine is from a key location.
//
// The tables are over nodes of the interprocedural control-flow graph: a
// node is a segment of a basic block that ends at a call or at the end of
// the block, or before a channel operation. Only the nodes a stack frame
// can map to are listed: for every source line of a function the node of
// the operation at that line (the top frame's position), for every call
// site its return-site node (a caller frame's position), and every
// function's entry.
//
// A Distances is built by the driver, travels to the test process as JSON,
// and must be compiled with Compile before it answers queries (Lookup,
// FromPCs, LookupStart, FromFuncPC). A compiled Distances is safe for
// concurrent use.
type Distances struct {
	// Files are the source files of Funcs, as the compiler records them
	// (absolute paths, forward slashes).
	Files []string `json:"files"`
	// Funcs are the functions that have nodes.
	Funcs []Func `json:"funcs"`
	// End is, per node, the distance from the node to the return of its
	// function (Infinity when the function cannot return from there).
	End []int32 `json:"end"`
	// Targets are the key locations; a target's index is the target
	// argument of Lookup and FromPCs.
	Targets []Target `json:"targets"`

	compiled *compiledDistances
}

// A Func is a source function (declared function, method or function
// literal) of the program, identified by its file and line span.
type Func struct {
	// Name is the SSA name of the function relative to its package, for
	// diagnostics only: frames are matched by file and line, not by name.
	Name string `json:"name"`
	// File indexes Distances.Files.
	File int `json:"file"`
	// Start and End are the first and last line of the function's syntax.
	Start int `json:"start"`
	End   int `json:"end"`
	// Lines and Nodes are parallel: the node of the operation at each
	// source line of the function that holds an instruction, by
	// ascending line. Both are empty (and so is Calls) for a function
	// from which no target is reachable: a frame in it stands at Entry.
	Lines []int32 `json:"lines"`
	Nodes []int32 `json:"nodes"`
	// Calls are the call sites (calls and go statements), by ascending
	// line.
	Calls []Call `json:"calls,omitempty"`
	// Entry is the node of the function's entry.
	Entry int32 `json:"entry"`
	// Lit marks a function literal. It tells apart the frames of a
	// function and of a literal that starts on the same line.
	Lit bool `json:"lit,omitempty"`
}

// A Call is a call site of a Func.
type Call struct {
	// Line is the source line of the call.
	Line int32 `json:"l"`
	// Node is the return-site node: where the caller continues when the
	// call returns.
	Node int32 `json:"n"`
	// Callees are the Funcs indices of the possible callees that have
	// nodes. They are left out for a call alone on its line (except for
	// go statements): the runtime needs them only to tell calls apart.
	Callees []int32 `json:"c,omitempty"`
	// Go marks a go statement: a frame at this site is the bottom of the
	// spawned goroutine, there is nothing to return to.
	Go bool `json:"g,omitempty"`
}

// A Target is a key location and its distance table.
type Target struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col,omitempty"`
	// Nodes and Dist are parallel: the nodes from which the target is
	// reachable, by ascending node, and their distance to it. Every other
	// node is at Infinity.
	Nodes []int32 `json:"nodes"`
	Dist  []int32 `json:"dist"`
}

// A Frame is one frame of a goroutine's call stack, as
// runtime.CallersFrames reports it.
type Frame struct {
	File string
	Line int
	Func string
}

// compiledDistances holds the lookup structures Compile builds.
type compiledDistances struct {
	paths  []string         // Distances.Files
	files  map[string]int   // exact path -> file index
	byBase map[string][]int // base name -> file indices
	// funcAt[file][line] is the innermost Func containing the line, or -1.
	funcAt [][]int32
	parent []int32   // the Func enclosing each Func, or -1
	dist   [][]int32 // dist[target][node]

	mu    sync.Mutex
	cache map[uintptr][]position // pc -> positions (inlined frames first)
	entry map[uintptr][]int32    // function pc -> entry nodes (FromFuncPC)
	// byName maps a method's Func.Name to its Funcs index, or -1 when
	// several functions have that name.
	byName map[string]int32
	// stacks memoizes whole FromPCs queries: the stacks of goroutines
	// stopped at the same place repeat across scheduling decisions.
	stacks map[stackKey]stackMemo
	buf    []position // scratch for FromPCs, guarded by mu
}

// A position is a stack frame resolved to the Funcs containing its line.
// It is computed once per distinct frame.
type position struct {
	// top is the frame's function as the top of the stack.
	top site
	// callers are the functions containing the line that have calls at
	// it, innermost first; a caller frame is one of them.
	callers []site
}

// A site is a frame's line in one function.
type site struct {
	fn     int32 // Funcs index
	op     int32 // node of the operation at the line (or the closest line before), or -1
	calls  int32 // first Calls index at the line
	ncalls int32 // number of Calls at the line
	exact  bool  // op is at the line itself
	named  bool  // the function is of the kind (literal or not) the frame's name says
}

// Compile checks the tables and builds the lookup structures. It must be
// called once, before any lookup.
func (d *Distances) Compile() error {
	nodes := len(d.End)
	c := &compiledDistances{
		paths:  d.Files,
		files:  make(map[string]int, len(d.Files)),
		byBase: make(map[string][]int, len(d.Files)),
		funcAt: make([][]int32, len(d.Files)),
		dist:   make([][]int32, len(d.Targets)),
		cache:  make(map[uintptr][]position),
		entry:  make(map[uintptr][]int32),
		stacks: make(map[stackKey]stackMemo),
	}
	for i, f := range d.Files {
		c.files[f] = i
		b := path.Base(f)
		c.byBase[b] = append(c.byBase[b], i)
	}
	for i := range d.Funcs {
		if err := d.compileFunc(c, i, nodes); err != nil {
			return err
		}
	}
	c.parent = d.nesting()
	c.byName = make(map[string]int32)
	for i, f := range d.Funcs {
		if !strings.HasPrefix(f.Name, "(") {
			continue // only methods have method values
		}
		if _, dup := c.byName[f.Name]; dup {
			c.byName[f.Name] = -1
		} else {
			c.byName[f.Name] = int32(i)
		}
	}
	for t, tg := range d.Targets {
		if len(tg.Nodes) != len(tg.Dist) {
			return fmt.Errorf("distances: target %d (%s:%d): %d nodes but %d distances", t, tg.File, tg.Line, len(tg.Nodes), len(tg.Dist))
		}
		dt := make([]int32, nodes)
		for i := range dt {
			dt[i] = Infinity
		}
		for i, n := range tg.Nodes {
			if n < 0 || int(n) >= nodes {
				return fmt.Errorf("distances: target %d (%s:%d): node %d out of range [0,%d)", t, tg.File, tg.Line, n, nodes)
			}
			if tg.Dist[i] < 0 {
				return fmt.Errorf("distances: target %d (%s:%d): negative distance %d", t, tg.File, tg.Line, tg.Dist[i])
			}
			dt[n] = tg.Dist[i]
		}
		c.dist[t] = dt
	}
	d.compiled = c
	return nil
}

// compileFunc checks Funcs[i] and enters its lines into c.funcAt, keeping
// the innermost function at every line.
func (d *Distances) compileFunc(c *compiledDistances, i, nodes int) error {
	f := &d.Funcs[i]
	if f.File < 0 || f.File >= len(d.Files) {
		return fmt.Errorf("distances: func %s: file %d out of range", f.Name, f.File)
	}
	if f.Start < 1 || f.End < f.Start || f.End > maxLine {
		return fmt.Errorf("distances: func %s: bad line span %d-%d", f.Name, f.Start, f.End)
	}
	if f.Entry < 0 || int(f.Entry) >= nodes {
		return fmt.Errorf("distances: func %s: entry node %d out of range", f.Name, f.Entry)
	}
	if len(f.Lines) != len(f.Nodes) {
		return fmt.Errorf("distances: func %s: %d lines but %d nodes", f.Name, len(f.Lines), len(f.Nodes))
	}
	for j, n := range f.Nodes {
		if n < 0 || int(n) >= nodes {
			return fmt.Errorf("distances: func %s: node %d out of range", f.Name, n)
		}
		if j > 0 && f.Lines[j] <= f.Lines[j-1] {
			return fmt.Errorf("distances: func %s: lines not ascending", f.Name)
		}
	}
	for j, cl := range f.Calls {
		if cl.Node < 0 || int(cl.Node) >= nodes {
			return fmt.Errorf("distances: func %s: call node %d out of range", f.Name, cl.Node)
		}
		if j > 0 && cl.Line < f.Calls[j-1].Line {
			return fmt.Errorf("distances: func %s: calls not ascending", f.Name)
		}
		for _, g := range cl.Callees {
			if g < 0 || int(g) >= len(d.Funcs) {
				return fmt.Errorf("distances: func %s: callee %d out of range", f.Name, g)
			}
		}
	}
	lines := c.funcAt[f.File]
	if len(lines) <= f.End {
		grown := make([]int32, f.End+1)
		copy(grown, lines)
		for k := len(lines); k < len(grown); k++ {
			grown[k] = -1
		}
		lines = grown
		c.funcAt[f.File] = lines
	}
	for l := f.Start; l <= f.End; l++ {
		if old := lines[l]; old < 0 || narrower(f, &d.Funcs[old]) {
			lines[l] = int32(i)
		}
	}
	return nil
}

// maxLine bounds the line numbers Compile accepts (the lookup structures
// hold an entry per line).
const maxLine = 1 << 22

// nesting returns the Func enclosing each Func (-1 for none): the
// narrowest other span of the same file containing it. Of two functions
// with equal spans, the later one in Funcs is inside the earlier one.
func (d *Distances) nesting() []int32 {
	order := make([]int32, len(d.Funcs))
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(a, b int) bool {
		fa, fb := &d.Funcs[order[a]], &d.Funcs[order[b]]
		switch {
		case fa.File != fb.File:
			return fa.File < fb.File
		case fa.Start != fb.Start:
			return fa.Start < fb.Start
		case fa.End != fb.End:
			return fa.End > fb.End
		}
		return order[a] < order[b]
	})
	parent := make([]int32, len(d.Funcs))
	var stack []int32
	for _, i := range order {
		f := &d.Funcs[i]
		for len(stack) > 0 {
			top := &d.Funcs[stack[len(stack)-1]]
			if top.File == f.File && top.End >= f.End {
				break
			}
			stack = stack[:len(stack)-1]
		}
		parent[i] = -1
		if len(stack) > 0 {
			parent[i] = stack[len(stack)-1]
		}
		stack = append(stack, i)
	}
	return parent
}

// narrower reports whether f's line span lies strictly inside g's, or is
// equal to it and starts later in the table (a literal declared on the
// same lines as its enclosing function comes after it).
func narrower(f, g *Func) bool {
	return f.End-f.Start <= g.End-g.Start
}

// NumTargets returns the number of targets.
func (d *Distances) NumTargets() int { return len(d.Targets) }

// TargetAt returns the index of the first target at file:line, or -1.
func (d *Distances) TargetAt(file string, line int) int {
	for i, t := range d.Targets {
		if t.Line == line && sameFile(t.File, file) {
			return i
		}
	}
	return -1
}

// Lookup returns the distance from a goroutine whose call stack is frames
// (innermost first, as runtime.CallersFrames yields them) to target:
//
//	h = min over i of ( Σ_{j<i} (End[n_j] + 1) + D_target[n_i] )
//
// over the frames that fall in the tables' functions (frames of the
// runtime, testing, the scheduler and other modules are skipped): n_0 is
// the node of the operation at the first such frame's line, and n_i
// (i > 0) the return-site node of the call on frame i's line through which
// frame i-1 was called. The walk stops at the first frame whose function
// cannot return, and at a go statement through which frame i-1 was
// started (the wrapper an instrumented go statement runs stands there:
// the goroutine ends, it does not return to the spawner). The result is
// Infinity when the target cannot be reached, or when Compile was not
// called or target is out of range.
func (d *Distances) Lookup(target int, frames []Frame) int32 {
	c := d.compiled
	if c == nil || target < 0 || target >= len(c.dist) {
		return Infinity
	}
	pos := make([]position, 0, len(frames))
	for _, fr := range frames {
		if p, ok := d.resolve(c, fr); ok {
			pos = append(pos, p)
		}
	}
	return d.walk(c.dist[target], pos)
}

// FromPCs is Lookup for a stack captured with runtime.Callers. Frames are
// resolved once per distinct program counter, and results are memoized
// per distinct stack, in d.
func (d *Distances) FromPCs(target int, pcs []uintptr) int32 {
	c := d.compiled
	if c == nil || target < 0 || target >= len(c.dist) {
		return Infinity
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := stackKey{hash: hashPCs(pcs), target: int32(target)}
	if m, ok := c.stacks[key]; ok && slices.Equal(m.pcs, pcs) {
		return m.h
	}
	pos := c.buf[:0]
	for _, pc := range pcs {
		ps, ok := c.cache[pc]
		if !ok {
			ps = d.resolvePC(c, pc)
			c.cache[pc] = ps
		}
		pos = append(pos, ps...)
	}
	c.buf = pos
	h := d.walk(c.dist[target], pos)
	if len(c.stacks) >= maxStacks {
		clear(c.stacks)
	}
	c.stacks[key] = stackMemo{pcs: slices.Clone(pcs), h: h}
	return h
}

// maxStacks bounds the memo of whole stacks; it is cleared when full.
const maxStacks = 1 << 14

// A stackKey identifies a memoized FromPCs query.
type stackKey struct {
	hash   uint64
	target int32
}

type stackMemo struct {
	pcs []uintptr
	h   int32
}

// hashPCs is FNV-1a over the program counters.
func hashPCs(pcs []uintptr) uint64 {
	h := uint64(14695981039346656037)
	for _, pc := range pcs {
		h ^= uint64(pc)
		h *= 1099511628211
	}
	return h
}

// LookupStart returns the distance to target of a goroutine that is about
// to call the function fn describes, where fn.File and fn.Line are the
// position of the function's declaration (of the wrapper literal of an
// instrumented go statement, which is at the go statement) and fn.Func its
// runtime name. The distance is that of the entry of the function declared
// at that line, else the least over the entries of the functions the go
// statements at that line start, else that of the entry of the innermost
// function containing the line (the entry of a function without a
// prologue is at its first statement).
func (d *Distances) LookupStart(target int, fn Frame) int32 {
	c := d.compiled
	if c == nil || target < 0 || target >= len(c.dist) {
		return Infinity
	}
	return minDist(c.dist[target], d.entriesAt(c, fn))
}

// FromFuncPC is LookupStart for the function whose entry is pc, as
// reflect.ValueOf(f).Pointer() returns it for a func value f. Results are
// cached per pc.
func (d *Distances) FromFuncPC(target int, pc uintptr) int32 {
	c := d.compiled
	if c == nil || target < 0 || target >= len(c.dist) {
		return Infinity
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	nodes, ok := c.entry[pc]
	if !ok {
		if fn := runtime.FuncForPC(pc); fn != nil {
			file, line := fn.FileLine(fn.Entry())
			nodes = d.entriesAt(c, Frame{File: file, Line: line, Func: fn.Name()})
		}
		c.entry[pc] = nodes
	}
	return minDist(c.dist[target], nodes)
}

// entriesAt returns the entry nodes LookupStart takes the least of.
func (d *Distances) entriesAt(c *compiledDistances, fn Frame) []int32 {
	if m, ok := strings.CutSuffix(fn.Func, "-fm"); ok {
		// A method value: the compiler's wrapper has no position of its
		// own; find the method by name.
		if f, ok := c.byName[methodName(m)]; ok && f >= 0 {
			return []int32{d.Funcs[f].Entry}
		}
		return nil
	}
	fi, ok := c.fileIndex(fn.File)
	if !ok || fn.Line <= 0 || fn.Line >= len(c.funcAt[fi]) {
		return nil
	}
	lit, named := isLiteralName(fn.Func), fn.Func != ""
	var started []int32
	inner := int32(-1) // innermost function of the frame's kind
	for f := c.funcAt[fi][fn.Line]; f >= 0; f = c.parent[f] {
		fd := &d.Funcs[f]
		kind := !named || fd.Lit == lit
		if fd.Start == fn.Line && kind {
			return []int32{fd.Entry}
		}
		if inner < 0 && kind {
			inner = f
		}
		st := d.siteAt(f, int32(fn.Line))
		for _, cl := range fd.Calls[st.calls : st.calls+st.ncalls] {
			if cl.Go {
				for _, g := range cl.Callees {
					started = append(started, d.Funcs[g].Entry)
				}
			}
		}
	}
	if started == nil && inner >= 0 {
		// The entry of a function without a prologue is at its first
		// statement.
		return []int32{d.Funcs[inner].Entry}
	}
	return started
}

// methodName turns the runtime name of a method (path/pkg.T.M,
// path/pkg.(*T).M) into its name relative to its package as
// Func.Name spells it: (T).M, (*T).M.
func methodName(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	_, rel, ok := strings.Cut(name, ".") // the package name has no dot (escaped %2e)
	if !ok {
		return ""
	}
	if !strings.HasPrefix(rel, "(") {
		if recv, m, ok := strings.Cut(rel, "."); ok {
			rel = "(" + recv + ")." + m
		}
	}
	return rel
}

func minDist(dist []int32, nodes []int32) int32 {
	best := int32(Infinity)
	for _, n := range nodes {
		best = min(best, dist[n])
	}
	return best
}

// resolvePC resolves the frames of one program counter (several when
// calls were inlined), innermost first.
func (d *Distances) resolvePC(c *compiledDistances, pc uintptr) []position {
	var ps []position
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		fr, more := frames.Next()
		if p, ok := d.resolve(c, Frame{File: fr.File, Line: fr.Line, Func: fr.Function}); ok {
			ps = append(ps, p)
		}
		if !more {
			return ps
		}
	}
}

// resolve maps a frame to the functions whose line spans contain it.
func (d *Distances) resolve(c *compiledDistances, fr Frame) (position, bool) {
	if fr.File == "" || fr.File == "<autogenerated>" {
		return position{}, false
	}
	fi, ok := c.fileIndex(fr.File)
	if !ok {
		return position{}, false
	}
	lines := c.funcAt[fi]
	if fr.Line <= 0 || fr.Line >= len(lines) || lines[fr.Line] < 0 {
		return position{}, false
	}
	lit, named := isLiteralName(fr.Func), fr.Func != ""
	var sites []site
	for fn := lines[fr.Line]; fn >= 0; fn = c.parent[fn] {
		st := d.siteAt(fn, int32(fr.Line))
		st.named = !named || d.Funcs[fn].Lit == lit
		sites = append(sites, st)
	}
	var p position
	p.top, ok = pickTop(sites)
	for _, st := range sites {
		if st.ncalls > 0 {
			p.callers = append(p.callers, st)
		}
	}
	return p, ok || len(p.callers) > 0
}

// pickTop chooses the function of a top frame: the innermost function of
// the kind the frame's name says (a literal or not) with an operation at
// the line, else with an operation before it; else the innermost function
// with an operation at the line, else before it.
func pickTop(sites []site) (site, bool) {
	for _, want := range []func(site) bool{
		func(st site) bool { return st.named && st.exact },
		func(st site) bool { return st.named && st.op >= 0 },
		func(st site) bool { return st.exact },
		func(st site) bool { return st.op >= 0 },
	} {
		for _, st := range sites {
			if want(st) {
				return st, true
			}
		}
	}
	return site{fn: -1, op: -1}, false
}

// siteAt returns line's operation and calls in Funcs[fn].
func (d *Distances) siteAt(fn, line int32) site {
	f := &d.Funcs[fn]
	st := site{fn: fn, op: -1}
	if len(f.Lines) == 0 {
		st.op = f.Entry
	}
	if k := sort.Search(len(f.Lines), func(k int) bool { return f.Lines[k] > line }); k > 0 {
		st.op, st.exact = f.Nodes[k-1], f.Lines[k-1] == line
	}
	lo := sort.Search(len(f.Calls), func(k int) bool { return f.Calls[k].Line >= line })
	hi := lo
	for hi < len(f.Calls) && f.Calls[hi].Line == line {
		hi++
	}
	st.calls, st.ncalls = int32(lo), int32(hi-lo)
	return st
}

// isLiteralName reports whether a runtime function name is that of a
// function literal or a compiler-made wrapper: pkg.F.func1, pkg.F.func1.2,
// pkg.F.gowrap1, pkg.F-range1, pkg.glob..func1.
func isLiteralName(name string) bool {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	if strings.Contains(last, "-range") {
		return true
	}
	t := strings.TrimRight(last, "0123456789")
	if t == last {
		return false
	}
	return t == "" || t == "func" || t == "gowrap" || t == "deferwrap"
}

// fileIndex finds a file by exact path, else, among the files with the
// same base name, the one sharing the most trailing path elements with it
// (binaries built with -trimpath record import-path-relative names).
func (c *compiledDistances) fileIndex(file string) (int, bool) {
	if i, ok := c.files[file]; ok {
		return i, true
	}
	found, best, tie := -1, 0, false
	for _, i := range c.byBase[path.Base(file)] {
		switch n := commonTail(c.paths[i], file); {
		case n > best:
			found, best, tie = i, n, false
		case n == best:
			tie = true
		}
	}
	if tie {
		return -1, false
	}
	return found, found >= 0
}

// commonTail returns the number of trailing path elements a and b share.
func commonTail(a, b string) int {
	n := 0
	for a != "" && b != "" {
		ia, ib := strings.LastIndexByte(a, '/'), strings.LastIndexByte(b, '/')
		if a[ia+1:] != b[ib+1:] {
			break
		}
		n++
		if ia < 0 || ib < 0 {
			break
		}
		a, b = a[:ia], b[:ib]
	}
	return n
}

// sameFile reports whether two recorded paths name the same file: equal,
// or one a suffix of the other at a path boundary.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	return strings.HasSuffix(a, "/"+b)
}

// walk computes the distance formula of Lookup over resolved positions.
func (d *Distances) walk(dist []int32, pos []position) int32 {
	best := int64(Infinity)
	acc := int64(0)
	callee := int32(-1)
	for i, p := range pos {
		st := p.top
		if i > 0 {
			var spawned bool
			st, spawned = d.returnSite(p, callee)
			if spawned {
				break
			}
		}
		if st.op < 0 || st.fn < 0 {
			continue
		}
		callee = st.fn
		if dn := dist[st.op]; dn != Infinity && acc+int64(dn) < best {
			best = acc + int64(dn)
		}
		end := d.End[st.op]
		if end == Infinity {
			break
		}
		acc += int64(end) + 1
		if acc >= best {
			break
		}
	}
	return int32(best)
}

// returnSite picks the call through which a caller frame called callee,
// and returns its function with op set to the call's return-site node:
// the first call (innermost function first) whose callees include callee;
// else the first call that is not a go statement, preferring the function
// of the kind the frame's name says; else the frame's top site. spawned
// reports that the call is a go statement: the deeper frames are a
// goroutine of their own (started by the instrumented go statement's
// wrapper, which runs at the go statement's line).
func (d *Distances) returnSite(p position, callee int32) (st site, spawned bool) {
	for _, cs := range p.callers {
		for _, cl := range d.Funcs[cs.fn].Calls[cs.calls : cs.calls+cs.ncalls] {
			for _, g := range cl.Callees {
				if g == callee {
					cs.op = cl.Node
					return cs, cl.Go
				}
			}
		}
	}
	for _, named := range []bool{true, false} {
		for _, cs := range p.callers {
			if named && !cs.named {
				continue
			}
			for _, cl := range d.Funcs[cs.fn].Calls[cs.calls : cs.calls+cs.ncalls] {
				// A call alone on its line lists no callees: it is the one.
				if len(cl.Callees) == 0 && cs.ncalls == 1 {
					cs.op = cl.Node
					return cs, cl.Go
				}
				if !cl.Go {
					cs.op = cl.Node
					return cs, false
				}
			}
		}
	}
	if len(p.callers) > 0 {
		return site{}, true // only go statements at the line
	}
	return p.top, false
}
