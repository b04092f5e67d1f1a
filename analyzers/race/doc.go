// Package race defines an Analyzer that reports possible data races.
//
// # Analyzer race
//
// race: report fields and variables that goroutines may access at the same
// time, at least one of them writing, with no common lock held.
//
// It reports three patterns, each as a warning.Race whose first site is
// the unguarded (or first racing) access and whose second site is a
// conflicting access:
//
//   - Inconsistent locking. The lock that guards a field or variable is
//     inferred from the code, RacerX-style: when at least two functions,
//     and at least half of the functions that access it, hold the same
//     lock at all their accesses, an access holding no lock at all is
//     reported together with a guarded access that conflicts with it (one
//     of the two writes; one in another function, and not in a helper
//     the unguarded access's function calls itself, which runs on its
//     goroutine, where there is such a choice). Locks held by callers count: the entry locksets
//     of package lockset, extended here through recursion and to function
//     literals that only run as callbacks during a call (sort.Search,
//     c.withLock(func() {...})), with the locks held at the call and
//     around the callee's calls of the callback, followed through
//     functions of the package it hands the callback on to (forEach
//     locking, then passing f to forEachLocked, which calls it) or
//     captures in a literal that calls it under a lock (eachOwnerLocked:
//     each(func(b) { b.mu.Lock(); fn(b) })). A deferred call runs under
//     the locks held at the returns its defer statement reaches, not at
//     an early return before it that unlocks by hand. A variable's own
//     function, and callbacks it runs synchronously, are left to the
//     goroutine check below, which knows the go statements and waits.
//     Functions named like fooLocked are taken to run under the lock
//     (the Go naming convention), since the lockset cannot always see it
//     (a helper that returns with the lock held on some paths only).
//     A lock that only two functions hold is a weak belief: on real code,
//     such a field is mostly set up under a lock held for other reasons
//     (Start, init, connect) before the goroutines that read it start. An
//     unlocked read is then reported only when the code marks it: its
//     function takes the lock elsewhere (a read after Unlock), an exported
//     function writes the field under the lock (callers may do so at any
//     time), or a test file declares the type. Unlocked writes are
//     reported on any belief, but only when some function writes the
//     field under the lock: a field only ever read under the lock (a
//     logger a setter sets before Connect, read by the methods that
//     lock for the state they change) shows no discipline for its
//     writes, and is left to the goroutine check. The contents of a
//     map read under a lock are guarded by it, written under it or
//     not. No discipline is inferred for a field of
//     a type another package declares from this package's own locks:
//     the locks held around a response it fetches and also caches say
//     nothing of the other package's accesses, nor of the fresh
//     responses it never caches; a lock of the field's own type still
//     counts.
//   - Wrong lock. An access that holds locks, but not the inferred guard,
//     and conflicts with an access holding the guard: the two locksets do
//     not intersect. A write holding only the read lock of the guard
//     (RLock) is reported too: other readers run at the same time; but
//     only where the field is the read-locked struct's own (or of a
//     struct it holds by value) and, where the function takes the read
//     lock itself, it takes it on the value whose field it writes
//     (r.mu.RLock(); r.err = err): not a node or pooled value found
//     while holding a container's read lock, whose own protocol (a
//     reference, ownership) keeps such writes apart.
//     Where too few functions share a lock to infer a guard, but every
//     function accessing the object holds some lock there, a write made
//     by a goroutine the package starts, under locks that do not
//     intersect those of an access outside that goroutine, is reported
//     the same way: both sides mean to synchronize and chose locks that
//     do not exclude each other (a collector's goroutine records lastStat
//     under the collection's lock while LastStat reads it under the
//     registry's). Without a goroutine writing, nothing shows the two
//     run at the same time, and the object is not reported. Either way,
//     one of the two locks must belong to an object holding the field (a
//     mutex of the field's struct, or of a struct holding it by value):
//     a field read under a stream's lock and written under an
//     association's, neither of them the chunk's, is taken for chunks
//     each owns in turn, or for different chunks of one type, and is not
//     reported. The object must hold the field as both accesses see it:
//     a memStore's lock over ms.state.Msgs says nothing of a helper
//     reading the Msgs of a StreamState it was handed.
//   - Fields apart. Two accesses that reach a field inside structs held
//     by value in fields of different types (ms.state.Msgs of a
//     memStore, fs.state.Msgs of a fileStore) touch different memory
//     and are never paired, by any check.
//     A struct-typed field copied or assigned whole (sum = fs.Counts)
//     counts as an access to each field of the struct the package can
//     select (fs.Counts.Success++ races with it); one finding is reported
//     per position and whole field.
//   - Unprotected sharing with a goroutine. For every go statement, the
//     accesses of the started function (followed over the package's call
//     graph: static calls, closures, calls of function values and
//     interface methods resolved by the VTA call graph of package lockset,
//     else interface calls resolved to the package's own types) to memory of the spawning function (a
//     package-level variable, a captured variable, or a field reached from
//     a variable or parameter) are matched with the accesses of the
//     spawning function after the go statement, with those of other
//     goroutines it starts, and, when the go statement is in a loop, with
//     those of the other instances of the same goroutine. A goroutine's
//     accesses include those of the goroutines it starts, itself or
//     through its callees, and leaves running (a test goroutine calling
//     a constructor that starts a loop), and those of the goroutines
//     they leave running in turn (go s.watch(), whose connect starts
//     the monitor): they run beside its siblings, and after its
//     spawner's caller, too. One function that two such goroutines each
//     start and leave running (a reconnect that the keepalive and the
//     reader both start on a lost connection) is taken for one
//     goroutine, not paired with itself, as the instances of a go
//     statement outside a loop are not. When a method
//     starts the goroutine, what the goroutine reaches through the
//     receiver is also matched with what the type's other exported
//     methods reach through theirs (callers may call them while the
//     goroutine runs), unless such a method waits for a goroutine that
//     signals, or the method waits for its goroutine before it returns
//     (a Shutdown running Stop in a goroutine and waiting for it or for
//     its context: the goroutine runs within the call) and is not itself
//     run by a goroutine of the package (a connection's loop, joining its
//     send and receive goroutines each round, runs all along); what such a method does only before it calls the method
//     that starts the goroutine (Start setting g.stopper, then calling
//     bootstrap) sets the goroutine up and is not matched. A goroutine that a callee starts and leaves running (a
//     Start method starting its loop, itself or through its own callees,
//     or a constructor starting one on the object it returns) is matched
//     with the caller's accesses after the call, its own and those of
//     its later calls and its deferred calls (a test restoring a
//     global it changed, defer func() { timeout = saved }(), while what
//     it started still reads it), unless a wait after the call orders
//     them (s.Stop() waiting for the loop to end, or a deferred
//     wg.Wait() registered after the deferred call, which runs first),
//     and with the goroutines
//     the caller starts while it runs (a test calling, from a goroutine
//     of its own, what the constructor's loop calls). Later calls that may start
//     the goroutine again, calls of the function that started it, calls
//     in a loop around that call, and accesses made only while a
//     boolean field the starting function sets true is false (if
//     !c.running { c.entries = append(...) }) are not matched. What a
//     goroutine does after a send or signal its spawner waits for
//     (startedCh <- err; then r.waitCh = ch) still runs beside the
//     spawner's caller. A function that a call passes to a callee that
//     runs it in a goroutine and returns (pool.Run(key, func() {...})
//     starting go func() { action() }(), errgroup's g.Go, WaitGroup.Go)
//     is checked like a go statement at the call: against the caller's
//     later accesses, other instances when the call is in a loop, and
//     other goroutines. Across packages, the accessFact of such a callee
//     lists the parameters it starts. So is a function passed to
//     time.AfterFunc or context.AfterFunc, which run it in a goroutine
//     of their own; a handler passed to http.HandleFunc or http.Handle
//     (or a ServeMux's) outside a test file runs in a goroutine per
//     request, its copies matched with each other (a test sends its
//     requests one after another). Two goroutines started in one loop,
//     the second only in a later round than the first, are not matched
//     on a variable the loop defines anew each round. A function literal
//     that a call runs before it returns, in the caller's goroutine
//     (sort.Slice's less, (*sync.Map).Range's f, the slices and strings
//     ...Func functions, or a function of the package that calls its
//     function parameter), makes its accesses for the caller, also
//     through a parameter it captures. A function that a call
//     passes to a callee that calls it from goroutines it starts in a
//     loop, joined or not (a ParallelizeUntil helper: for each worker,
//     go func() { ...; work(piece) }()), runs in several copies at once:
//     the copies are matched with each other on the caller's memory the
//     function reaches, under the locks the callee holds around its calls,
//     also where the callee converts it to a named function type or hands
//     it on inside a literal (the accessFact's Parallel). A goroutine
//     handed the element its loop visits is not matched with what the
//     spawner does in later rounds of that loop (the next elements), but
//     is with what it does in the same round after the go statement.
//
// WRONG:
//
//	func (c *Counter) Inc() {
//		c.mu.Lock()
//		c.n++
//		c.mu.Unlock()
//	}
//
//	func (c *Counter) Peek() int {
//		return c.n // reads (Counter).n without holding (Counter).mu
//	}
//
//	func Sum(xs []int) int {
//		sum := 0
//		go func() {
//			for _, x := range xs {
//				sum += x // written by the goroutine ...
//			}
//		}()
//		return sum // ... and read here, unsynchronized
//	}
//
// RIGHT:
//
//	func (c *Counter) Peek() int {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		return c.n
//	}
//
//	func Sum(xs []int) int {
//		var wg sync.WaitGroup
//		sum := 0
//		wg.Add(1)
//		go func() {
//			defer wg.Done()
//			for _, x := range xs {
//				sum += x
//			}
//		}()
//		wg.Wait() // orders the goroutine's writes before the read
//		return sum
//	}
//
// # What is not a race
//
// Accesses to an object allocated in the same function before it escapes
// (constructors, composite literals; in a loop, the object made in this
// round, though the last round's has escaped), or after it is private
// again: when
// it escaped only into a map held in a field or package-level variable
// (g.m[key] = c) and a call on every path since deleted key from that
// map holding a lock (the unpublish protocol of x/sync's singleflight:
// the goroutines that write c find it in g.m under g.mu, and the delete's
// lock orders their writes before the read); accesses in init functions and in
// functions only ever run by sync.Once.Do; sync/atomic operations and values of
// types from sync and sync/atomic (they are synchronization); what
// instances of one goroutine do while they hold a resource handed out by
// a call that waits and given back by a call that signals (res, err =
// pool.Acquire(ctx) ... res.Release(): a pool or semaphore of one orders
// them, and its size is not in the code); accesses
// in the spawning function before the go statement, and those it makes
// before the go statement through its calls: they set the goroutine up,
// and are not paired with it by either check, also where a method
// reaches them by calling the spawner (Publish calling connect, which
// sets p.conn and then starts p.router); accesses after a
// channel receive, a select or WaitGroup.Wait that follows the go
// statement and dominates them, or after a call of a function that waits
// so (a semaphore's Acquire, in this package or known by its fact), when
// the goroutine signals (sends, closes a channel or calls
// WaitGroup.Done, itself or through its calls); accesses after
// <-ctx.Done() (alone, or in a select all of whose cases are such waits)
// of a context whose cancel function the goroutine's literal calls;
// accesses made after a wait on a channel or WaitGroup field on every
// path to them (a receive on one path, the receive case of a select
// whose other case returns on another: a Wait(ctx) that returns early on
// cancellation), when the goroutine closes that field, calls Done on it
// or sends on it as the last thing before it returns, or closes it or
// calls Done in a deferred call (a Close that stops two loops and
// receives from their done channel twice); values handed over through
// a channel (their origin is unknown, so they are never matched); and
// variables declared inside the loop body of a go statement in a loop
// (every iteration's goroutine has its own), nor the slice or map
// element the loop hands to each goroutine it starts (for _, l := range
// c.links { go func(l *Link) { l.add(t) }(l) }); and what a benchmark
// (func BenchmarkX(b *testing.B) of a test file) shares with the
// package's goroutines other than its own variables: it runs the
// package on fixtures it builds (a fake connection, a state preset so
// that connecting is skipped), and whether its goroutines meet the
// package's turns on that setup. Nor, for the same reason, what a test's
// own code (a function or literal of a _test.go file) reads or writes of
// the package's memory, directly or through the package's internals (an
// unexported function, a method of an unexported type, that the test
// calls itself), while a goroutine that the package's code started (a
// janitor, a timer loop New left running) runs: a white-box test setting
// a field of the object it built, or pushing onto its internal queue,
// relies on that goroutine being idle (no deadline armed yet, an interval
// longer than the test). What a test does through the package's API,
// goroutines the test's code starts, and memory of types a test file
// declares stay checked.
// Nor, likewise, the package's memory that copies of one goroutine a test
// starts (in a loop, or by two go statements) touch: a test running one
// call of the package's API side by side to show it is safe for
// concurrent use, whose copies meet on one object or not by the
// package's own protocol (a reference count, a lazy getter, a
// compare-and-swap state). The test's variables and types stay checked.
// Nor, in a test function, what a
// goroutine a call left running does only after receiving from a channel
// field that nothing sends on or closes before the test's access: the
// test names the client, then sends it what its write loop waits for.
// The channel must be made for the field alone and never leave it, and
// the test, the calls before its access, and the goroutine itself must
// not send on it. Likewise outside tests, for a goroutine started on a
// value that nothing else can reach yet (allocated by its spawner, or
// handed to it fresh by every caller): a server starting a connection's
// write loop, then naming the connection before it publishes it. Its
// accesses after a receive on a channel field of that value do not meet
// the spawner's until the value is stored elsewhere, passed to a call
// that may keep it (one the analysis cannot follow, such as a hook's
// interface method, may), or sent on by anyone.
//
// Nor, by the lock-discipline check, an unguarded access that no
// goroutine of the package makes, against guarded ones made only in
// goroutines whose spawners wait for them before they return, each way
// there passing no function other packages call (a fan-out adding nodes
// to a map under its lock, read by a Commit that runs before or after
// it). Nor accesses on one object's event
// loop: a goroutine started once per call of an entry point (Start's go
// n.loop(), not started in a loop, by no call in a loop of the package's
// code) whose functions, and only they, write a field under the lock for
// readers on other goroutines and read it without the lock; the loop's
// own accesses are in program order. The code outside goroutines may run
// those functions too where the loop is not running: Start before its go
// statement (setState(Follower), then go s.loop()), Stop after a wait
// for the loop's exit (wg.Wait(), then setState(Stopped)). Nor, likewise, accesses to the
// fields of a T on the goroutine that runs a method of T for a new T (an
// accept loop's go newConn(c, s).serve(), the connection made anew each
// time round): its command handlers read the connection's fields
// without the lock the setters take for readers on other goroutines.
// Fields of other types (the server's, which every connection's
// goroutine shares) are paired as usual. Nor a constructor's accesses after
// it starts the object's loop with go a.loop() and before it returns the
// object: only that loop can reach the object, and the goroutine check
// pairs the two. Nor what a function does in the receive case of a
// polling select (select { case err = <-done: ...; default: }), which
// waits as a blocking receive does, nor after a polling loop that exits
// only once flags set by what it received are true (for !r0 || !r1 {
// select { case r0 = <-ready0: case r1 = <-ready1: default: } }, or
// done = true in the receive case's body): the exit edges are taken only
// after those receives, which wait as they do. Nor the fields of a type a test file
// declares, reached by goroutines some function starts, when no test
// that reaches that function makes a value of the type: the package's
// code calls the type's methods through an interface (a store, a
// sampler, a reporter) that the tests driving the goroutines fill with
// other implementations, and tests run one at a time. An object a
// constructor returns with an error (l, err := decode(pair)) is as new
// as one it returns alone, and a helper handed it before it is let out
// touches it unshared. So is what a call of an interface method returns
// when every implementation the call may reach returns a new object (an
// allocator whose implementations make one, or take one from a
// sync.Pool). Where a path holding a sync.RWMutex exclusively
// meets one holding it shared (RLock; on a miss RUnlock, Lock, defer
// Unlock to create; else defer RUnlock), it is held shared (see package
// lockset).
//
// Nor code that never runs: a function literal written only after a call
// that does not return (a test that calls t.Skip first thing starts none
// of its goroutines), which go/ssa does not build.
//
// Nor what a function does to an object it owns alone: after it dropped
// the object's last reference (if atomic.AddInt32(&s.refs, -1) == 0 {
// s.reset() }, or the early return if s.refs.Add(-1) > 0 { return }):
// every other holder released its reference after its own accesses, and
// the atomic decrements order them; or before it puts the object back in
// a sync.Pool (s.reset(); pool.Put(s)), which hands it to the pool's
// next user. Only the object's own memory is meant (s.tags, and the
// fields of a struct it holds by value), not what it points to (s.tracer
// is shared with other spans); a method the package calls only so (the
// reset) is not checked against the object's lock.
//
// Where a function takes a lock only when a boolean parameter asks it to
// (if lock { s.mu.Lock(); defer s.mu.Unlock() }), what it does past that
// branch holds the lock or not as the caller's argument says: a caller
// passing true makes the locked accesses, one passing false the others,
// and one passing its own parameter on leaves the choice to its callers.
// An access made only for a value that every caller passing it makes on
// an object not yet published (a constructor tagging the span it builds
// with setTag(k, v, false)) is not checked against the lock.
//
// The exported methods of an unexported type are taken to be called
// while a goroutine of the type runs only where other packages can call
// them: through an interface the type is converted to, or promoted to an
// exported type. Otherwise the package's own calls of them (a
// constructor calling v.Start once, before it starts its loops) are all
// there is, and the checks follow those.
//
// Nor what only a caller breaking the package's documented contract can
// cause (after RacerD's @NotThreadSafe, the documentation moves the duty
// to the caller): a side made in or through an exported function whose
// documentation (or that of the package's interface method it
// implements) says it is not safe for concurrent use ("not thread-safe",
// "must not be called concurrently") and that holds no lock there, or
// that it must be called before, or is only valid after, a call of the
// package's API ("must be called before Run()"); and a finding whose
// sides are all made through exported methods of a type documented as
// not safe for concurrent use, or implementing the methods of an
// interface of the package documented so (a MutableTree "is not
// threadsafe"). A side made in an unexported helper is made through the
// exported functions whose calls reach it, also through goroutines their
// spawners wait for before they return. A side a goroutine the package starts
// makes is bound by nothing its callers were told, and a moment that is
// no call ("must be called before the program exits") binds nothing.
//
// The lock-discipline check reports only where the code shows the
// unguarded access can run concurrently (after RacerD, precision before
// recall): an access in a function is judged in the contexts the package
// calls it in, and not at all when that is not known. So these are not
// reported either: accesses in a method only called on memory its caller
// has not published (a constructor calling init, or a function whose
// first argument, or only argument of the package's struct types, is the
// object being built: fill(c, builder); also one a filler was handed and
// gave back: h, err := fill(row, &Host{}); valid(h)); in a function whose
// only callers in the package are its tests (a test calling a helper
// directly), or that the package never calls itself nor starts (a
// callback another package stores, a heap.Interface method container/heap
// calls), or that only such functions call; in a function that locks only
// when asked (if lock { mu.Lock() }), which runs under its callers' lock
// where it does not lock; accesses in test files to the package's own
// memory (the goroutine check covers the tests that start goroutines;
// the fields of types a test file declares, and its package-level
// variables, are the test program's own and are checked like the
// package's, except in the methods of a test suite, a type a test file
// declares with methods named like tests, which its runner (testify's
// suite.Run) calls one at a time like test functions: their accesses are
// not lock-checked, and a goroutine one of them starts is not matched
// with the suite's other methods); and accesses to a field of a
// value a function was handed (its receiver, or a parameter of that type)
// when the inferred guard is a lock of another type (a pool's resource,
// guarded by the pool while it holds it and then used by its holder
// alone); and accesses in a method made only after it saw false, holding
// a lock, a flag that the goroutine's spawner sets to true under a lock
// before the go statement, when every other store of false to it follows
// a handshake with the goroutine (a send without buffer, or a wait): if
// !c.running { c.entries = ... } else { c.add <- e }. A Locker made by
// another package is a lock named after the
// variable or field holding it, and Lock/Unlock of any type that is a
// sync.Locker (a spin lock over atomics) a lock operation on the
// receiver. Two more shapes are locks (see package lockset): a channel
// of capacity 1 used as a mutex, a send locking it and a receive
// unlocking it (coder/websocket's mu, whose lock(ctx) error holds it
// where it returns nil: if err := mw.mu.lock(ctx); err != nil { return
// err }; defer mw.mu.unlock()), named after its field, but not a channel
// used as a signal (a coalescing notify) nor a semaphore of capacity 2
// or more; and an atomic flag taken by compare-and-swap from a constant
// and released by storing that constant back (if
// atomic.CompareAndSwapUint64(&t.running, 0, 1) { ... }, released by
// atomic.StoreUint64(&t.running, 0), also by the goroutine the holder
// hands its work to), named after its field. A flag excludes its holders
// from one another (goroutines that both hold it are not paired), but,
// like an assumed lock, is no evidence of which lock guards a field,
// and an access holding only flags is unguarded to the lock discipline:
// its holder often hands the work to goroutines that hold nothing.
//
// An operation of package sync/atomic on a variable or field
// (atomic.AddUint64(&c.stats.Writes, 1)) is an access too, atomic: the
// goroutine check pairs it with a plain access of another goroutine (the
// Go memory model makes a plain read of a counter another goroutine adds
// to atomically a race), never with another atomic one, and the
// lock-discipline check leaves it out (it is neither evidence of a
// guard nor unguarded).
//
// A testing/synctest bubble's synctest.Wait orders what the bubble's
// goroutines did before it, with no signal of theirs. Returning a named
// result as it is (return cancel) writes nothing. A context.CancelFunc
// call is not taken for a signal: waits are matched to signals only
// coarsely (any wait after a go statement, when the goroutine signals),
// and a select over several contexts' Done channels (the first client to
// finish) would then order the goroutines still running.
//
// A goroutine that closes a channel field, or calls Done on a WaitGroup
// field, in a deferred call has finished once that happened: an access
// made after waiting on the same field, in the caller or in a function it
// calls (a close method doing s.stop <- x; <-s.stop before it flushes,
// with the send loop's defer close(s.stop)), is not paired with it.
// Fields are told apart by type and name, not by instance.
//
// Double-checked initialization with an atomic flag orders its accesses:
// a write followed in its block by flag.Store(true) happens before a read
// made only after flag.Load() returned true (a lazily started clock).
// Closing a channel orders a field set once with its readers: when every
// write of the field is made only where a check under the same lock found
// it nil (if s.err == nil { s.err = err }), or right before a close of a
// channel field of the same value, in its block (h.closeErr = err;
// close(h.closed): run twice, it would panic), every close of a channel field
// of the same value comes after such a check, and the channel is only
// ever closed, received from or handed out receive-only, a read made
// after a receive from the channel returned (<-s.done; return s.err, or
// the select case of the receive) meets no write.
// Lazy initialization under a gate orders a field set once with the
// reads made after it: a gate is an unexported field that every store
// makes non-zero (once set, it stays set); a field every write of which
// is made where a check of the gate of the same value found it zero,
// under a lock held until the gate is set, is written at most once per
// value, and a read made only where the gate was seen set (under that
// lock, or by an atomic load), or after a call of a function of the
// package that returns only so (t.init(); return t.dying, tomb.v1's
// shape, or the double-checked if atomic.LoadUint32(&f.state) != 0 {
// return } before the same check under the lock), meets no write. What
// orders an access (this, the atomic flag, the closed channel) travels
// with it in the facts of the functions other packages call.
// A close-once gate hands its value to the closer: a function that sets
// a gate holding a lock since a check found it clear (if c.closed {
// return }; c.closed = true; then Unlock) claims the value, and what it
// does after the claim, itself or in the functions only such callers
// call (Close → c.release()), is not paired with the accesses made only
// holding that lock since a check found the gate clear (Write bailing
// out on c.closed): those come before the claim in the lock's order. An
// access under the lock that does not check the gate (a Reset) is still
// paired. The gate's value is matched by field, not by instance.
//
// A function literal started by a go statement whose function then waits
// (a receive, a select, WaitGroup.Wait) on every path to a return, and
// that signals itself (sends, closes a channel, calls Done), runs within
// that function's call: under the locks its callers hold around it (a
// ReadAt holding the file's read lock, fanning the read out to goroutines
// and collecting their results). The locks the function takes itself are
// not counted, nor is the wait matched with the goroutine's signal. A
// loop that starts such a literal and waits on what it signals on every
// way round (go func() { resp.Read(br); close(done) }(); select { case
// <-done: case <-time.After(d): t.Fatalf("timeout") }) runs one of them
// at a time: its copies are not paired with each other. A path through a
// call that never returns (t.Fatal, t.FailNow, t.Skip, log.Fatal,
// log.Panic, os.Exit, runtime.Goexit) goes nowhere, for these waits and
// for the waits before an access.
//
// What a function does after a go statement is what the paths from it
// reach, following only the branches the conditions tested on the way
// to the statement allow (package branches: a boolean's value, a value's
// nilness, through phis, until the path computes the value again): go
// hijacked(ctx, h); break under if h != nil, then if h == nil {
// ctx.reset() } after the loop, never resets the context the goroutine
// has (fasthttp's serveConn).
//
// A struct that is its own storage (a variable, a value made with new or
// a composite literal, an element of a slice or array of such structs)
// is other memory than one a struct holds by value in a field
// (minio-go's Object.objectInfo under its mutex, and the package's local
// ObjectInfos), as two structs held in fields of different types are.
//
// A helper called only from functions whose own contexts are never known
// (callbacks handed to a ticker loop) runs under the locks those callers
// hold around the call; one reached only from functions that run on
// memory not yet published (Open → l.connect() → l.dial()) runs so too.
// A call on a new object its caller has handed only to goroutines it
// started on a declared function (go c.reader(conn); c.open(cfg)) is
// such a site: the goroutine check pairs those goroutines with what the
// call does, and the lock discipline follows the other callers (a
// Reconnect that opens again under its lock).
// An interface call reaches only the package's types that are converted
// to an interface in the package, or exported from a file that is not a
// test; and none of them when no value the package makes reaches the
// call (VTA finds none: a connection the user's Dial func field made),
// unless the receiver is a parameter of an exported function. A list or
// map detached under the lock (head := l.front; l.front = nil, or n :=
// s.notify; s.notify = make(...)) and walked after Unlock is the
// function's own. Instances of a goroutine the package starts in a loop are not
// paired on a test's own value (a handler type declared in a test file):
// the test decides how many run at once.
//
// More objects are known new: the result of a factory returning one
// through an interface (return &Publish{}, or a value copied into it),
// or passing on the first result of such a call, also across packages
// (the Fresh bit of the fact), and its type assertion; the elements of a
// map a function makes and keeps to itself, filled only with new objects
// (a snapshot of clones taken under a lock, worked on after it is
// released); and a local variable that a closure running only inside
// the enclosing call fills (msg := Message{}; read(func() { msg.Key =
// k })). A send on a channel without buffer that a goroutine receives
// from only to return at once (select { case <-stop: return; default:
// ... }) orders the spawner's later accesses after everything the
// goroutine did.
//
// Contexts are followed through callbacks and flags: a function value
// stored into an unexported field of function type (p.evict =
// c.evictNode, directly or through a constructor's parameter) is entered
// where the field is called, under the locks held there; a call made
// only under if on a boolean parameter (if alreadyLocked { c.run(t) })
// takes its caller's context from the callers that can pass that value.
// An exported method that takes no lock and that the package's code calls
// only on values it is still building (a constructor configuring the
// counter it was given: l.counter.Config(n) before l is returned) is a
// setup method: it is not checked against the lock discipline.
// Publication is followed through what real constructors do: storing
// the new object's pointer into its own fields (c.f = c.method, a closure
// over c), or into a new object only it holds, or into a new object
// handed to a helper (&ctx{db}), does not publish it (the new object's
// own escapes do); the result of a package function that returns a new
// object nothing else holds (&T{...}, or a copy c := *s; return &c) is
// unpublished in its caller until it escapes there (clone :=
// newScope(); clone.m[k] = v); and what an unexported function does
// through a parameter for which every caller passes such unpublished
// memory (s.hostInfoFromMap(row, &HostInfo{...})) happens before
// publication, until the function hands it to a goroutine. A call
// publishes the object it passes where its callee starts a goroutine
// that has it (a go statement on it, or a literal capturing it, in the
// callee or the package functions it passes the object to: dial(r)
// calling r.poll(), which starts the resolver's loop). Locks are followed across goroutines: a
// function that releases a lock it did not acquire (mu.Lock(); go func()
// { ...; mu.Unlock() }(), or a fooAndUnlock called through a function
// value) runs with it held until it releases it, and the go statement
// hands the lock over; such an assumed lock covers its accesses but is
// no evidence of which lock guards a field. An access reached through an
// interface method call on a value the caller passes depends on its
// concrete type: it is dropped where a caller passes another type
// (testify's assert.Equal with a *testing.T never writes
// assert.CollectT). An access under if on a boolean parameter (if mut {
// *cn = copy }), or on the comparison of a parameter with a constant (if
// interval > 0 { go s.reportLoop(interval) }: the goroutine and what it
// does), is dropped where a caller passes the constant that skips it. After a go statement, an access is ordered after the goroutine when
// every path to it passes a wait (a loop's next round after wg.Wait), and
// goroutines' accesses to objects they make themselves, or whose memory
// is not reached from a variable, parameter or package-level variable,
// are not matched with each other. A goroutine started as a closure in a
// method reaches the receiver through the closure, and is matched with
// the type's other exported methods like one started as a method. An
// exported method that the package calls only on values it is still
// building (a setter its constructor calls on the connection it makes)
// is taken to be called so by other packages too, before the goroutine
// starts, and is not matched; a setter the package never calls is, and
// so is one it calls on a receiver that a function literal captures (Go
// keeps it in a cell, which holds the caller's value).
//
// # What is not modelled
//
// A pointer variable that a closure other than a deferred one captures
// (also a parameter, which Go then keeps in a cell) is taken for memory
// its function made, so the function's own accesses through it can be
// missed as made before publication, unless the closure starts a
// goroutine with it where it runs (called in place, or passed to a
// function that calls it: run := func() { go s.worker() };
// startWorkers(run)). What a function literal that a callee runs before
// returning does through a captured parameter (sort.Slice's less, a
// helper calling its function parameter) is the function's callers',
// as the parameter's memory. Treating the function's own accesses the
// same way was measured on the held-out modules: 148 more findings, 17
// of them true; the orderings the false ones need come first.
// An unguarded access made after its function waited on a WaitGroup of
// its own is not matched with the guarded accesses of goroutines that
// defer that WaitGroup's Done first thing and run nothing else (a Serve
// closing the files its workers left open once wg.Wait() returns): two
// calls of the function at once are not considered.
// A field reached under the locks of two other objects (see Wrong
// lock), each mutex neither the field's struct's nor one holding it by
// value, is not reported, also where one object really is shared by
// both.
// Plain pointer dereferences other than *p for a pointer parameter p
// (bound at calls to the caller's variable); slice and array elements
// (s[i] is never reported: goroutines usually
// own distinct indices; the fields of a struct reached through an
// element that a range loop over the slice or array visits (not for i :=
// range len(s), nor a loop written by hand) are, rooted at the variable holding
// the slice, since copies of the loop meet on every element, but not
// through an element picked by a computed index, a work queue's head;
// whether such an element is new memory is judged from the element, not
// from that variable); map contents are modelled as one object per
// variable or field holding the map (m[k], m[k] = v, len(m), range, delete,
// clear), but maps reached only through calls results or other maps are
// not; atomic operations of the types of sync/atomic (atomic.Int64),
// whose memory plain code cannot reach but by copying the struct; aliasing between different
// variables (goroutine accesses match only when they are reached from the
// same variable, parameter or package-level variable of the spawner,
// through the same fields, or from the same call's result); objects
// reached through map elements or slices of a call's result
// (q.m[key].Timestamp); a retry loop calling again the function whose
// goroutine writes what the next round reads; callers of goroutines
// started in other packages; happens-before through
// sync.Cond, context cancellation (but for a goroutine's literal
// cancelling the context its spawner waits on), or synchronization
// inside callees of the spawner; functions called through function values other than
// closures created in place or passed to the function that calls them
// (a callback parameter's accesses are those of the closure each call
// site passes, also as the receiver of an interface method of a named
// function type: var h Handler = HandlerFunc(f); go h.Serve() runs f),
// so a closure kept in a field, a slice or a map and called from a
// goroutine later (a handler registered in a mux of the program's own,
// then served) is not followed; and goroutines started by other
// packages, except to run a function passed to them (errgroup's Go,
// time.AfterFunc, context.AfterFunc, net/http's handlers); other
// functions of the standard library are taken not to call a function
// passed to them unless they are known to call it before they return
// (sort.Slice, (*sync.Map).Range, ...).
//
// These orderings are not modelled either, and are the most common false
// findings on real code (cmd/corpus/trials): a lifecycle a state check
// enforces (Init and Start return an error while the server runs, so
// their writes never meet the loop); an event loop whose functions
// another goroutine also runs (a test's server goroutine handling
// requests that the loop's owner would otherwise queue for it); a
// goroutine that touches an object only once a timer it arms from the
// object's state fires, which a test never arms; a state machine of compare-and-swap
// transitions; values that decide whether a write runs at all (a field
// set lazily only while nil where no gate orders it as above, a header
// the test's message already has);
// and instances told apart only by how they were made (a response fresh
// from a call against the cache's copies). A helper that locks only when
// a flag asks it to is followed for one such flag per function, and only
// where the flag is a parameter its callers pass a constant or their own
// parameter for (not a field, nor a value a call computes).
// An exported function runs with no lock on entry, whatever the
// package's own callers hold (other packages may call it without
// them): a lock a goroutine was handed (mu.Lock(); go withRecover(func()
// { defer mu.Unlock(); ... })) covers the goroutine's calls down to the
// first exported method, not past it (sarama's Kerberos Authorize,
// reached with the broker's lock held).
// Nor are: state machines whose transitions act as a lock's
// acquisition and release (go-redis's ConnStateMachine, whose
// AwaitAndTransition from Idle to Initializing excludes other callers
// until Transition(Idle)); a channel used as a mutex the other way round
// (a token received to acquire and sent back to release); that a
// goroutine started through sync.WaitGroup.Go (or another function its
// literal is passed to) does not hold its spawner's locks (the literal
// is taken to run under the locks held at the call, as a callback);
// a field written before close(ch) without a set-once check, other
// than right before the close in the same block (the write is ordered
// only if nothing writes it after the close);
// ownership invariants kept at run time (a copy-on-write tree writing
// only nodes whose owner id is its own, beyond constant boolean
// arguments); contracts documented in other words than those above, or
// on another package's API; a read in a select loop's default case
// that an unbuffered send stops before the write; and branches on
// configuration fields a test leaves unset.
// Locksets come from package lockset (must-held locks with
// interprocedural summaries and entry locksets for unexported helpers);
// lock instances are not distinguished, only lock classes.
//
// # Sites and facts
//
// Every finding is a warning.Race reported through warning.Report (so
// //nolint and //confirm:ignore suppress it) with two sites: Sites[0] is
// the unguarded or first racing access, Sites[1] the conflicting one.
// Site.Pos is the start of the expression that reads or writes the
// object: the selector expression x.f, the identifier v, the index
// expression m[k], the ranged expression of a range loop over a map, or
// the call delete(m, k). Site.Func is the function containing Site.Pos
// and FuncLine the line relative to its declaration; Site.Chain lists
// the functions entered from the go statement or call of the analysed
// function down to the one performing the access (the goroutine's entry
// first); Site.Goroutine names the function a go statement started, for
// the goroutine's side. When the access happens in a function of another
// package, known only through an accessFact, Site.Pos is the start of the
// call in this package that reaches it and Site.Chain ends with the
// function of the other package that performs it.
//
// Each exported function exports an accessFact listing the accesses it
// (and its callees) performs to memory reached from its parameters or
// from exported package-level variables, with the locks held there, and
// whether it signals (closes or sends on a channel, calls
// WaitGroup.Done) and whether it waits (receives, selects, calls
// WaitGroup.Wait or Cond.Wait). Packages of the Go distribution are not analyzed and
// have no facts.
//
// FactsAnalyzer is Analyzer without its checks: it exports the facts and
// reports nothing. cmd/confirmvet runs it on the packages go vet hands it
// only for their facts (the dependencies of the packages named), where
// the checks cost time and memory for findings nobody sees. The checks
// are where most functions are first summarized, and a summary computed
// during a recursive call sees the partial summary of the function in
// progress, so its facts can differ from Analyzer's where functions
// recurse; drivers that run the analyzers in one process (multichecker,
// golangci-lint, the confirm pipeline) run Analyzer everywhere.
package race
