// Package lockset computes, over go/ssa, which locks are held at every
// point of the functions of a package. It is the shared machinery of the
// lockorder and race analyzers.
//
// # Lock classes
//
// A mutex is named by its lock class (Ref.Class), a stable name for every
// mutex stored in the same place:
//
//	bank.mu                  package-level variable mu of package bank
//	bank.state.mu            field mu of the package-level struct variable state
//	(bank.Account).mu        field mu of the named struct type Account
//	(bank.Account).Mutex     an embedded sync.Mutex
//	(bank.Bank).accts.mu     field mu of the anonymous struct in field accts
//	bank.table[].mu          a mutex in the elements of an array, slice or map
//	bank.F.mu                a local variable or parameter mu of bank.F
//	bank.newMu()             the mutex a call to bank.newMu returns
//
// A field of a named type is named after the nearest named struct type
// that contains it, so every instance of Account shares the class
// (bank.Account).mu wherever it lives. Acquisitions carry a Mode (Write
// or Read). A sync.Locker is named after the mutex it wraps when the
// package shows it: &mu, rw.RLocker() (a Read reference), the L of a
// sync.Cond built by sync.NewCond or a composite literal, or a variable or
// field to which the package only ever stores lockers of one class. A
// mutex taken from a map or an interface with comma-ok (m, ok :=
// locks[k]) is named like the map's elements.
//
// Ref.Inst tells instances of one class apart inside a function: it is an
// access path from a parameter ("$0.mu"), a free variable ("^1"), a global
// ("g:...") or a local SSA value ("v:t3.mu"). A variable captured by a
// closure that only ever holds its initial value (a receiver or
// parameter the closure reads) is that value: p.mu is "$0.mu" in a method
// whose closure captures p, not a path through the variable's cell. Equal non-empty paths denote
// the same mutex (as far as a lock analysis cares: writes to the pointers
// on the path in between are ignored); "" means unknown (an element at a
// non-constant index, a map value). Two paths through objects the
// function cannot name are still followed to the caller's values: the
// result of a constructor that stores its argument into a field of the
// new object it returns, a field nothing else in the package stores to
// (NewMembersAPI(c).client is c), and an element's pointer back to the
// owner of the map, slice or array field it is an element of (for _, r
// := range s.replicas, r.store is s). A sync.Cond stored in a field of a
// value a call returned, made on a lock of that same value (e.cond =
// sync.NewCond(e.mu.RLocker())), has that value's lock as its L.
//
// # Lock operations
//
// Classifier.Op recognizes Lock, Unlock, RLock, RUnlock, TryLock and
// TryRLock of sync.Mutex and sync.RWMutex, called directly, promoted
// through embedding, or as method values; Lock and Unlock through a
// sync.Locker whose value is known (see above); and sync.Cond.Wait, which
// releases and re-acquires L. A TryLock holds its lock on the true branch
// of the If that tests its result. Sends and receives on channels used as
// mutexes, and compare-and-swaps and stores on atomic flags used as
// try-locks, are lock operations too (see the next section).
//
// # Locks that are not sync's
//
// Two other shapes are locks too, named after the location holding them
// (Ref.Kind and Item.Kind tell them from mutexes):
//
//   - A channel of capacity 1 used as a mutex (KindChan; coder/websocket's
//     mu{ch: make(chan struct{}, 1)}): a send on it acquires it, a
//     receive releases it; a select acquires it on the edge into a case
//     sending on it (the If comparing the select's index with that case),
//     and releases it where it has a case receiving from it. Its class is
//     the field, package-level variable or captured variable holding it
//     ((websocket.mu).ch). A location is such a mutex when every store to
//     it is make(chan T, 1) with the constant 1, its channel is only sent
//     on, received from (without comma-ok: never ranged over), selected
//     on or measured (never closed, passed on, stored elsewhere or
//     compared), some function sends on it and some receives, no method
//     of a sync.Locker type operates on it (that Locker's Lock and Unlock
//     are the lock operations), and some function acquires it and later
//     releases it while it holds it (itself, through its callees, or in
//     a deferred call). A coalescing notify (select { case c.notify <-
//     struct{}{}: default: } in producers, <-c.notify in a worker) fails
//     the last test: a signal's sender never receives. The analysis runs
//     once with every candidate, then again without those that failed.
//     A semaphore of capacity 2 or more is not a mutex.
//   - An atomic flag taken by compare-and-swap (KindFlag;
//     go-datastructures' if atomic.CompareAndSwapUint64(&t.running, 0,
//     1) { ... }): a field or package-level variable on which the package
//     tests (an If on the result or its negation, or a return of it)
//     compare-and-swaps of sync/atomic (the functions or the methods of
//     atomic.Int32, Uint64, Bool...) from one constant, its free value,
//     to another, and that it releases by storing the free value back
//     (atomic.StoreUint64(&t.running, 0), f.Store(false)) or by a
//     compare-and-swap to it whose result it ignores. It is a TryLock:
//     held on the edge where the compare-and-swap succeeded. Any other
//     operation on it but a load (a swap, an add, a store of another
//     value, a tested compare-and-swap from another value, operands that
//     are not constants), or one in a method of a sync.Locker type (a
//     spin lock), makes it something else: a counter, a state machine.
//     Its release is often made by the goroutine its holder hands the
//     work to: a function that releases a flag it did not take runs
//     holding it (Assumed, see below) only when the package runs it, by
//     calls or go statements, where the caller itself holds the flag,
//     and other packages cannot call it; a Close storing back the state
//     Open set does not.
//
// Lockorder checks mutexes only (a flag never blocks, a channel's
// blocking is its channel checks' business); the race analyzer uses all
// three.
//
// A function returning with such a lock held only where its last result,
// an error, is nil, or a bool, is true, is a conditional acquisition for
// its callers (Summary.CondHolds): lock(ctx) error, tryLock() bool, or a
// function returning such a call's result (return m.lock(ctx)). Its
// callers hold the lock on the edge of an If that finds the result nil
// (err != nil's false edge) or true, as after TryLock. A flag is passed
// on so through a bool only: a flag a function keeps where it returns a
// nil error is a state it moved to (sarama's Broker.Open keeping opened
// until Close), not a critical section its callers run in. Conditional
// acquisitions of mutexes are not recorded (lockorder has its own
// account of lock helpers returning errors).
//
// # Must-held locksets
//
// For each function, a forward dataflow over the control-flow graph
// computes the set of locks held on every path (intersection at joins,
// where a sync.RWMutex held exclusively on one path and shared on the
// other is held shared, and their deferred Unlock and RUnlock are one
// RUnlock: the read lock traded for the write lock to create on a miss).
// Deferred calls are kept on a stack in the state and applied, last
// first, at RunDefers; a recover block starts with nothing held. A call to
// a function that is not a lock operation applies the callee's Summary:
// its Releases (its callers' locks it unlocks) are removed and its Holds
// (the locks it returns with, as a lock helper does) are added. Summaries
// are computed bottom-up on demand, with an empty entry lockset; inside a
// recursive cycle, a function still being summarized has an empty summary.
// Summaries of functions of other packages come from facts (Summary is an
// analysis.Fact exported on each *types.Func); standard library packages
// are not analyzed and have none, except the functions that call a
// function argument before they return (sync.Once.Do, sync.Map.Range,
// sort.Slice, slices.SortFunc and the like: a ParamCall of that
// argument), so the locks taken inside once.Do(func() { ... }) are the
// caller's; and the printing functions of fmt, log and testing (Printf,
// Sprint, Errorf, log.Println, t.Logf...), whose operands of a concrete
// type with an Error or String method, formatted with a verb that calls
// it (%v, %s, %q, %x, %X, %w; every operand of Print and Println), are
// taken for calls of that method at the printing call.
//
// Callees are the static callee, or the callees VTA finds among the
// package's own (non-generic) functions (when several, the call holds
// what all of them hold), or, for an interface method call VTA cannot
// resolve, the method of the package's own type that implements the
// interface when exactly one does. VTA takes every function the package
// stores into a field for a callee of every value read from it; a
// closure's call of a value its maker read from a field before storing a
// closure there (userRevoked := cfg.onRevoked; cfg.onRevoked =
// func() { ...; userRevoked() }: a wrapper calling what it replaces) is
// not resolved to that closure, nor to others stored there after the
// read. A wrapper installed twice on one field, which does call the
// first wrapper, is missed. A call of a function parameter is not resolved inside the
// function: the summary records it (Summary.ParamCalls, with the locks
// held then) and each caller applies the function it passes, so
// withLock(f) orders f's locks after withLock's in the context of each
// call. A function value loaded from a field and passed there
// (q.Pop(c.process)) is each function literal the package stores into
// that field (followed through copies from other fields; a method value
// stored there is not followed), without its bindings. A callee's acquisitions are not ordered after the caller's locks
// it releases before them (Item.Unheld: released on some path to every
// acquisition of the item); one made while it still holds the caller's
// lock, before releasing it, is (an unlock helper that read-locks a
// table before it releases a key's lock). In a loop whose body releases
// a lock held before the loop (a retry loop calling what releases its
// caller's lock), Result.Trace gives the acquisitions made on every
// iteration the locks held on the first: the must-held set at the loop
// header, met with the back edge, has lost the lock, though the first
// time round takes the body's locks while it is still held. A deferred call of an unknown
// function value (defer unlock()) is assumed to release everything, and
// so is a call of a function that releases a sync.Locker it cannot name
// or that is its parameter or free variable (the release function
// unlockOnce(&mu) returns, running once.Do(l.Unlock)).
//
// A call that passes a constant for a boolean parameter the callee
// branches on (c.remove(k, true), where remove locks only if !locked;
// s.unsubscribe(code, false), which sends only if its flag is true)
// applies a summary of the callee computed with the branches that
// constant rules out left out; other calls, and the callee's own flows,
// take both branches. Result.LockFlags names the boolean parameters whose
// branches hold a lock effect (if lock { mu.Lock(); defer mu.Unlock() }),
// and Result.HeldBeforeWhen gives the locks held at a point for each
// value of one, for analyzers that tell the two apart.
//
// A function that both acquires and releases a lock without holding it
// on return leaves it as its caller had it (Summary.Neutral: if lock {
// mu.Lock() } ... if lock { mu.Unlock() }, or unlock, call, lock again;
// an acquisition and a release pair when their instances are equal or
// one is unknown); one that releases its caller's lock first (itself,
// not through a callee), takes it again only after that and does not
// hold it on every return releases it (it unlocks,
// then runs a check that locks and unlocks): the item stays in its
// Releases and Acquires. One that takes it back only after releasing it
// and holds it on every return (unlock, wait, lock again) keeps its
// acquisition in Acquires, with the lock itself in the item's Unheld:
// the caller's other locks are ordered before it, the caller's hold on
// it is not a double lock.
//
// The entry lockset of a function (Result.Entry) is the intersection of
// the locks held at its call sites, translated to its parameters, when it
// is unexported, never used as a value (method value, interface
// conversion of an unexported method name used in an interface call, go or
// defer statement), and called directly in the package at least once;
// otherwise it is empty. So incLocked, called only under a.mu, sees a.mu
// held. A function started by a go statement is used as a value: it
// starts with nothing held. Locks from the entry lockset are Inherited.
//
// The body of a range-over-func loop (for k := range seq), which go/ssa
// builds as a synthetic yield function passed to the iterator, is its
// enclosing function's own code, whatever the iterator: it starts with
// the locks held where the iterator is called that every run of the
// body keeps (not Inherited: locking one again in the body is a double
// lock), and each way out of it (the end of the body or continue, and
// each break, return or goto, told apart by the number the body stores
// into the loop's jump variable) brings the locks it releases and
// acquires to where the enclosing function resumes, at its test of that
// number. A return from inside the body after an Unlock leaves the
// function without the lock; the loop's other ways out keep it. The
// body has its function's name (FuncName).
//
// A deferred call registered on some paths only runs at the return on
// a copy of the locks held there (see Must-held locksets): what it
// releases is not held on every path. A lock it takes back (mu.Unlock();
// defer mu.Lock() on one branch of a function called with mu held) is
// held at the return when the paths that did not register it held the
// lock where they joined.
//
// # API
//
// Require Analyzer and read its *Result:
//
//	res := pass.ResultOf[lockset.Analyzer].(*lockset.Result)
//	for _, fn := range res.Funcs { ... }          // SSA.SrcFuncs, none in the standard library
//	held := res.HeldBefore(instr)                 // lockset.Set: locks held before instr
//	held.Holds("(bank.Account).mu")               // by class; held.Classes(), held.Describe()
//	r, ok := res.Ref(v)                           // class and instance of the mutex v points to
//	op, ok := res.Op(call)                        // the lock operation of a call, if any
//	t := res.Trace(fn)                            // acquisitions (with held sets), releases, returns
//	s := res.Summary(fn)                          // what fn acquires, releases, holds on return
//	e := res.Entry(fn)                            // locks held at every call site of fn
//	fns := res.Callees(call)                      // callees as the analysis resolves them
//
// Each Lock in a Set has its Class, Mode, Kind, Inst, the position where
// it was acquired (Pos; the call for locks taken by callees, with Chain
// naming the callees), and Value, the SSA value of the mutex (the
// channel, or the flag's address) when the function itself acquired it.
//
// # Not modelled
//
// A channel used as a mutex the other way round (filled with a token
// first, a receive acquiring it and a send releasing it); channels in
// local variables no closure captures, or passed as parameters. A
// channel of capacity 1 that passes the tests above is taken for a mutex
// as soon as one function sends on it and later receives from it,
// whatever the program means by it. Flags whose
// free value is not a constant, state machines whose transitions act as
// acquire and release (go-redis's ConnStateMachine: AwaitAndTransition
// from Idle to Initializing, Transition back to Idle, the states passed
// as arguments and the waiters served by another goroutine), and the
// compare-and-swap of a pointer (atomic.Pointer, CompareAndSwapPointer).
// Conditional acquisitions through named results assigned in deferred
// calls, or results tested elsewhere than in an If of the caller.
package lockset
