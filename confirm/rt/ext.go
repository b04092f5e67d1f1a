package rt

// Calls into code the runtime does not control that may synchronize: a
// sync.Map or sync.Pool, a mutex, WaitGroup or channel of another module
// (errgroup, a semaphore, a pool). Two controlled goroutines can order
// their accesses through such code, and the race oracle cannot see how;
// so the rewrite follows every such call with a scheduling point of kind
// "outside" (ExtDone, or Ext1..Ext4 around a call with results). Its
// arrival, right after the call and still in the caller's turn, releases
// the caller's clock into one object that all such calls share; its
// execution acquires that object. A goroutine that observes what another
// did in uncontrolled code does so after that one's release (nothing else
// runs between a call and its point) and before its own acquire, so the
// accesses around the calls are ordered as they may be in the program.
// This over-approximates the synchronization (all such calls are ordered
// in the order they happen), so a race through them is missed rather
// than reported falsely. A call that blocks or stalls in uncontrolled
// code is detached and rejoins at its point; detaching releases the
// caller's clock into the shared object at once, since the others may see
// what it did before the call (a semaphore it hands over) before it
// reaches its point.

// ExtDone is the point after a call statement into uncontrolled code that
// may synchronize.
func ExtDone() { extPoint(callerPC()) }

// Ext1 is the point after a call into uncontrolled code with one result:
// f(x) becomes Ext1(f(x)).
func Ext1[A any](a A) A {
	extPoint(callerPC())
	return a
}

// Ext2 is Ext1 for a call with two results.
func Ext2[A, B any](a A, b B) (A, B) {
	extPoint(callerPC())
	return a, b
}

// Ext3 is Ext1 for a call with three results.
func Ext3[A, B, C any](a A, b B, c C) (A, B, C) {
	extPoint(callerPC())
	return a, b, c
}

// Ext4 is Ext1 for a call with four results.
func Ext4[A, B, C, D any](a A, b B, c C, d D) (A, B, C, D) {
	extPoint(callerPC())
	return a, b, c, d
}

func extPoint(pc uintptr) {
	e, g, md := enter()
	if md != modeCtl {
		return
	}
	g.release(&e.ext)
	g.op = op{kind: opExt, pc: pc}
	e.point(g)
}
