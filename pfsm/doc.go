// Package pfsm computes the polymorphic distance heuristic (PFSM) of
// Rungta and Mercer's meta heuristic: how far a goroutine, given its call
// stack, is from the next key location of a sequence, measured over the
// interprocedural control-flow graph of the program.
//
// # Graph
//
// Nodes are segments of SSA basic blocks: a block is split after every
// call instruction (Call, Go, Defer) and after RunDefers, so each call has
// a call node (the segment ending with the call) and a return-site node
// (the segment after it). Blocks are also split before channel
// operations (send, receive, select), so that a goroutine stopped at one
// is at the start of a node. Calls to built-in functions do not split.
//
// Every node costs 1 to leave. Leaving a call node to its return site
// costs 1 plus the step-over cost of the call: the minimum, over the
// call's possible callees, of the callee's summary (its shortest entry to
// exit distance), or 2 when a callee is outside the analyzed packages or
// the call has no known callee. A call whose callees can never return has
// no step-over edge. A go statement costs 1 to step over, a defer
// statement 1; RunDefers costs 1 plus the sum of the step-over costs of
// the function's deferred calls. A panic leads to the function's Recover
// block when it has one and is a dead end otherwise; a return leaves the
// function.
//
// Possible callees come from a VTA call graph (go/callgraph/vta) seeded
// with the CHA call graph, so calls through interfaces and function values
// have every feasible implementation as a callee. Synthetic functions
// (bound method closures, thunks, instantiation wrappers) are looked
// through to the functions they call; instances of generic functions are
// identified with their generic origin.
//
// Besides these intraprocedural edges, a call node has a descend edge of
// weight 0 to the entry of each of its callees (and RunDefers to the
// entries of the deferred callees), and a go statement a spawn edge of
// weight 0 to the entry of the function it starts, so a position is
// credited for approaching a call that leads to the target.
//
// # Tables
//
// Summaries are computed bottom-up over the strongly connected components
// of the call graph, iterated to a fixpoint inside a component. For each
// node, End is the distance to the return of its function. For each
// target (a source line), a reverse Dijkstra search over intraprocedural,
// descend and spawn edges (never return edges) gives D_t, the distance of
// every node to the nearest instruction of the target line.
//
// Only the nodes a stack frame can stand at are exported: per source line
// the node of its first operation that can be a scheduling point, per call
// site its return-site node, and each function's entry. A function from
// which no target is reachable is exported without lines: a frame in it
// stands at its entry (its summary stands in for the distance to return),
// which keeps the tables of a large program small.
//
// The tables are handed to the runtime as an [rt.Distances]; its Lookup
// and FromPCs combine them along a goroutine's stack:
//
//	h = min over frames i of ( Σ_{j<i} (End[n_j] + 1) + D_t[n_i] )
//
// where n_0 is the node of the top frame's current operation and n_i the
// return-site node of frame i's call, stopping at the first frame whose
// function cannot return.
//
// # Use
//
// Load the packages whose functions should have nodes (every package that
// holds a key location, and the tests that run them), build the graph
// once, and compute the tables of each sequence's key locations:
//
//	pkgs, err := pfsm.Load(dir, true, "./...")
//	g, err := pfsm.Analyze(pkgs)
//	d, err := g.Distances([]pfsm.Target{{File: "/abs/path/x.go", Line: 42}})
//
// The *rt.Distances travels to the test process as JSON; there
// d.Compile() prepares it and d.FromPCs(target, pcs) scores a goroutine
// from the program counters runtime.Callers captured at its scheduling
// point. Functions of packages that were not loaded are opaque: they cost
// 2 to step over, and are only looked into through the functions passed
// to them as arguments.
package pfsm
