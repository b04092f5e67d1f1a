// Package dist is the fixture of the pfsm distance tests. Lines are named
// by @markers; the tests look them up. Most rows target the line @t in tgt.
package dist

import "sort"

var sink int

func tgt() {
	sink++ // @t
}

func a() {} // @a

func b() {}

func c() {}

// Straight-line code, target @c.
func straight() {
	a() // @s0
	b() // @s1
	c() // @c
}

// Branches: the shorter branch wins.
func branch(x bool) {
	if x {
		a() // @b1
		a()
		a()
		tgt()
	} else {
		a() // @b2
		tgt()
	}
}

func callsBranch() {
	branch(true) // @cb
}

// Polymorphic calls: the closer implementation wins.
type Shape interface{ Area() int }

type Near struct{}

func (Near) Area() int {
	a()
	tgt()
	return 0
}

type Far struct{}

func (Far) Area() int {
	a()
	a()
	a()
	tgt()
	return 1
}

func poly(s Shape) {
	s.Area() // @p0
}

func farOnly(f Far) {
	f.Area() // @p1
}

func usePoly() {
	poly(Near{})
	poly(Far{})
	farOnly(Far{})
}

// Closures passed as values.
func apply(g func()) {
	g() // @ap
}

func closure() {
	n := 0
	apply(func() {
		n++
		a() // @c1
		tgt()
	})
}

// go statements lead into the spawned function.
func spawner() {
	a()         // @g0
	go worker() // @g1
	a()
}

func worker() {
	a() // @w0
	tgt()
}

func spawner2() {
	go idle() // @g2
	tgt()
}

func idle() {
	a() // @i0
}

// Returning through the stack.
func leaf() {
	a() // @l0
	a()
}

func mid() {
	leaf() // @m0
	a()
	tgt()
}

func spin() {
	for {
		a() // @sp
	}
}

func mid2() {
	spin() // @m2
	tgt()
}

// Recursion: summaries over a call-graph cycle.
func rec(n int) {
	if n > 0 {
		rec(n - 1)
	}
	a()
}

func useRec() {
	rec(3) // @ur
	tgt()
}

// Deferred calls run at RunDefers.
func deferrer() {
	defer tgt() // @d0
	a()         // @d1
}

// Generic functions are analyzed once, through their instances.
func gen[T any](x T) {
	a() // @gn0
	tgt()
}

func useGen() {
	gen(1) // @ug
}

// Several calls on one line: the deeper frame picks the call.
func slow() int {
	a() // @sl
	return 1
}

func fast() int {
	return 2 // @fa
}

func use(x, y int) {
	tgt()
}

func two() {
	use(slow(), fast()) // @tw
}

// Panics reach the function's recover block.
func recovers() {
	defer func() {
		recover()
	}()
	panic("x") // @pa
}

func afterRecover() {
	recovers() // @ar
	tgt()
}

// Functions passed to functions outside the program may be called by them.
func withCallback(xs []int) {
	sort.Slice(xs, func(i, j int) bool { // @cbk
		a() // @cbk1
		tgt()
		return false
	})
}

// An instrumented go statement runs a wrapper literal at the go statement's
// line, which calls the user's function.
func spawner3() {
	go func() { // @g3
		a() // @g3a
	}() // @g3e
	tgt()
}

// Deferred calls run at the closing brace.
func deferAfter() {
	defer a()
	tgt()
} // @de

// A goroutine stopped at a channel operation has passed the statements
// before it.
func chanOps(ch chan int) {
	sink = 1 // @cw
	ch <- 1  // @ch1
	sink = 2
	<-ch // @ch2
}

// Method values and method expressions go through synthetic wrappers
// ($bound, $thunk).
type runner struct{}

func (runner) run() {
	a()
	tgt()
}

func apply2(g func()) {
	g() // @ap2
}

func bound() {
	var r runner
	apply2(r.run)
}

func applyT(g func(runner)) {
	g(runner{}) // @apt
}

func thunk() {
	applyT(runner.run)
}

// Methods of generic types are analyzed once, through their instances
// (the program lists only the instances of such a method).
type box[T any] struct{ v T }

func (b *box[T]) put(x T) {
	a() // @gm0
	b.v = x
	tgt()
}

func useBox() {
	(&box[int]{}).put(1) // @ub
}
