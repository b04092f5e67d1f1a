// Package lockorder defines an Analyzer that reports lock-order cycles,
// double locking, recursive read locking, leaked locks and locks held
// across a channel operation that needs them.
//
// # Analyzer lockorder
//
// lockorder: report locks acquired in inconsistent orders, locked twice,
// read-locked recursively, left held on a return path, or held across a
// channel operation whose peer needs them.
//
// It builds a lock-order graph over lock classes (see below): an edge A→B
// for every acquisition of B while A is held, within a function or through
// its callees, and reports:
//
//   - a cycle A→B→…→A between distinct classes (Kind lock-order-cycle):
//     goroutines taking the locks along the different paths can deadlock;
//     a cycle over three or more classes only when at most one of its
//     edges is taken in callees (each such edge is a call path the
//     analysis cannot check against the others, and on real packages
//     such cycles were none of them feasible); and no cycle one of whose
//     edges takes its second lock more than six calls down from the
//     function holding the first (a client's Close running its close
//     hooks, one of which closes a failover that locks: paths that long
//     across hooks, method values and interface methods were none of
//     them feasible on real packages; the bug kernels' take at most five);
//   - two instances of one class nested (from.mu then to.mu) with no
//     ordering comparison between the two instances deciding which is
//     first (lock-order-cycle): two goroutines with the instances swapped
//     deadlock; a comparison of one instance's state (a balance check
//     before the second Lock) decides nothing. A function that links the
//     second instance below the first (stores it into a field of the
//     first, appends it to a slice field or puts it into a map field of
//     it, or the reverse, itself or through the functions it passes both
//     to: r.AddRouter(child) setting child.parent = r) builds a hierarchy
//     and locks in its order: not reported;
//   - a mutex locked again while it is held (double-lock): Go mutexes are
//     not reentrant, also when the second Lock is in a callee (a callback
//     stored in a field of the value it captures, x.f = func() {
//     x.Count() }, or a method value of it, x.f = x.count, called as
//     x.f() under x.mu is that value's; so is an interface field only
//     ever set to its owner, x.g = x; and a function value the function
//     calls itself, whose instance cannot be followed, locking the
//     class it holds: etcd's lessor calling the checkpointer that
//     checkpoints back into it), and also
//     along a path that keeps it held only there (a continue or branch in
//     a loop that skips the Unlock, a deferred Unlock in a loop body, a
//     break out of the loop before it) when that path reaches the Lock
//     again;
//   - a read lock taken again while held (rwr-deadlock), also through
//     RLocker() or a sync.Cond whose L is a read locker, when some code
//     write-locks the same class: a writer waiting in between blocks the
//     second RLock, and the writer waits for the first;
//   - a lock still held on some return of the function that acquired it
//     but not on others (lock-leak), such as an early return err that
//     skips the RUnlock, or a function handing its lock to the caller on
//     success (acquire, then release) returning an error still holding
//     it where another error return released it; also a lock held on
//     only some of the paths that merge before a return (Clang's "mutex
//     is not held on every path through here"): taken in a loop and
//     still held on a break out of it, with one return after the loop
//     (cockroach584), when nothing after the merge releases a lock of
//     its class (a lock taken and released under the same condition, if
//     lock { mu.Lock() } ... if lock { mu.Unlock() }, or a TryLock tested
//     twice, is not reported) and no deferred call does; not in a type's own
//     Lock, RLock, TryLock or TryRLock method (holding is its purpose),
//     nor for a lock that a goroutine started in the same declaration
//     releases without acquiring it (a lock handed to a goroutine, or a test's mutex used
//     as a signal between two goroutines), nor for a lock whose release
//     the package hands away as a function value stored in a field or a
//     package-level variable or passed to a go statement
//     (s.NotifyStartedFunc = waitLock.Unlock), nor for one that a
//     function literal of the same declaration releases when the literal
//     is handed to a call (a commit's onDone callback that unlocks the
//     commit lock, queued for the loop that commits);
//   - a lock a function holds on every return, or on every return of a
//     nil error when its last result is an error, that no caller
//     releases (lock-leak): such a function is a lock helper (lock(),
//     Begin handing the writer lock to the transaction it returns,
//     acquire() error whose callers defer release()) only when some
//     function of the package releases a lock of that class and mode
//     that it did not acquire itself (an unlock helper, a caller
//     releasing what a callee returned holding, a function called with
//     the lock held, a function making the lock's Unlock or RUnlock
//     method value: return lf.lock.RUnlock, the callback whoever read
//     the file calls); when none does, the next Lock of the class blocks
//     (moby17176's cleanup returning nil still holding the lock, etcd's
//     acquire returning ErrConnClosed from an endless loop with the read
//     lock held). Reported in the function that acquired the lock itself,
//     not in its callers that return holding it in turn; not for a lock
//     another package may release (an exported field or embedded mutex
//     of a package that can be imported), nor for a function returning a
//     mutex or a sync.Locker. With deferred calls the results are read
//     through their slots, and the return after a recovered panic does
//     not count;
//   - a blocking channel operation made holding a lock when every
//     operation that could complete it (the sends and closes a receive
//     waits for, the receives a send waits for) needs the same lock class
//     in another function (lock-channel-deadlock): made holding it, or in
//     a loop that locks it on every path before its next operation (a
//     range loop receiving that locks in its body: the second send,
//     holding the lock, waits for the loop, which waits for the lock;
//     also a function that receives, then locks on every path to its
//     return, called only in loops: for { s.syncBatch() }), or, for an
//     operation made once, locked on some path on its way to it (a
//     goroutine that takes the lock for each update and closes donec with
//     a defer as it returns: Stop, holding the lock, waits on donec). The
//     channel is a field or package-level variable, or a local variable
//     whose every use is seen: made in the function, used there and in
//     the function literals that capture it, handed to nothing else
//     (a handler holding mu sends on done while the test locks mu
//     before it receives from done: istio16224).
//
// WRONG:
//
//	func (b *Bank) Total() int {
//		b.mu.Lock()
//		defer b.mu.Unlock()
//		t := 0
//		for _, a := range b.accts {
//			t += a.Balance() // locks a.mu while holding b.mu
//		}
//		return t
//	}
//
//	func (a *Account) Audit(b *Bank) int {
//		a.mu.Lock()
//		defer a.mu.Unlock()
//		return b.Count() // locks b.mu while holding a.mu: cycle
//	}
//
//	func (c *Cache) Lookup(k string) (int, error) {
//		c.mu.RLock()
//		v, ok := c.m[k]
//		if !ok {
//			return 0, errMissing // returns with c.mu read-locked
//		}
//		c.mu.RUnlock()
//		return v, nil
//	}
//
//	func (m *Mailbox) Take() int {
//		m.mu.Lock()
//		defer m.mu.Unlock()
//		return <-m.ch // Put locks m.mu before it sends: neither proceeds
//	}
//
// RIGHT:
//
//	func (a *Account) Audit(b *Bank) int {
//		a.mu.Lock()
//		n := a.balance
//		a.mu.Unlock()
//		return n + b.Count() // a.mu released first: always b.mu before a.mu
//	}
//
//	func Transfer(from, to *Account, n int) {
//		if from.id < to.id { // one global order between instances
//			from.mu.Lock()
//			to.mu.Lock()
//		} else {
//			to.mu.Lock()
//			from.mu.Lock()
//		}
//		...
//	}
//
//	func (m *Mailbox) Take() int {
//		return <-m.ch // wait without holding m.mu
//	}
//
// # Lock classes
//
// Locks are named by class (package analyzers/internal/lockset): "bank.mu"
// for a package-level variable, "(bank.Account).mu" for a field of a named
// type, "(bank.Bank).state.mu" for a field of an anonymous struct,
// "(bank.Account).Mutex" for an embedded mutex, "bank.F.mu" for a local or
// parameter. Read and write acquisitions are told apart: a cycle is only
// reported when, at every lock of the cycle, the mode wanted conflicts
// with the mode held (not both read).
//
// # Interprocedural analysis
//
// The held locks are a must-held forward dataflow (see lockset): it
// follows defer and early returns, applies callee summaries (what a
// function acquires, which of its callers' locks it releases, what it
// still holds on return: lock helpers), and gives unexported functions
// called only directly the locks held at all their call sites; a
// function that releases a lock it did not acquire runs with it held up
// to the release, and a go statement starting such a function hands the
// lock over (the spawner no longer holds it). Deferred calls registered
// on some paths only (if fast { defer mu.Unlock() } else { defer
// func() { go release() }() }) each run at the return on a copy of the
// locks held there: a lock one of them releases is no longer held on
// every path, so a deferred call registered earlier, which runs after
// them, does not lock it "again" (franz-go's GroupTransactSession.End).
// Locking a mutex variable declared just before, in the same block,
// that nothing else has used yet (var mu sync.Mutex; mu.Lock(); a
// callback made next waits on it) cannot wait: it orders nothing after
// the locks held, and callers do not see it acquired. A function that releases
// a lock it was called with and takes it back (unlock, lock the
// registry, lock again) leaves its callers holding it: their locks are
// not ordered before what it acquires while the lock is released (also
// through the functions that call it), and a return after it holding
// the lock is not a leak, nor is one in the function itself; but its
// taking the lock back is ordered after the other locks its callers
// hold (moby4951: DeleteDevice locks devices, then info.lock, and
// removeDeviceAndWait unlocks devices, waits and locks it again under
// info.lock), except for a sync.Locker the package does not show to
// wrap one of its mutexes, which may be the caller's own. Only
// interface methods with sync.Locker's signatures (Lock(), Unlock()) are
// lock operations: a distributed lock's Lock(ctx, key) (Lock, error) is
// not; such a call
// that resolves to one method is that lock's acquisition, and a *T made
// into a Locker whose Lock is its embedded mutex's locks that mutex
// (etcd's BatchTx). Dynamic calls are resolved with VTA over the
// package's functions (for interface values that come from elsewhere,
// the package's own implementation when there is only one), function
// literals of a named func type passed to a callee are called where it
// calls its parameter, and so are the function literals the package
// stores into a field when that field is passed (q.Pop(c.process), the
// process callback of kubernetes30872's informer called under the
// queue's lock; not the method values stored there, c.cmdable =
// c.Process), and Cond.Wait takes back the lock of its class it
// released; closures called in place run under the caller's locks, and
// so do the functions passed to the standard library's synchronous
// runners (once.Do(func() { ... }), sync.Map.Range, sort.Slice,
// slices.SortFunc...): a lock taken inside once.Do under the same lock is
// a double lock (hugo5379), and a value printed by fmt, log or testing
// is printed by its Error or String method, called at the printing call
// (fmt.Printf("%s", c) under c.mu.RLock() with a String method that
// read-locks c.mu is a recursive read lock: cockroach6181); a function
// started by a go statement starts with none. Across packages, function
// summaries (lockset facts) carry acquisitions made in callees, and the
// Orders package fact carries each package's lock-order edges and its
// write-locked classes, so a cycle split over packages is reported in the
// package that closes it.
//
// # Gate locks
//
// A lock class held for writing at an edge's second acquisition, other
// than the edge's two classes, is a gate of the edge. Where the edge is
// seen in several functions, each observation keeps its own gates: a
// cycle is reported only when one observation of each of its edges can
// be chosen such that no two of them share a gate, and the sites are
// those observations (one observation without the gate keeps the edge
// ungated, and is the one reported; an edge made under gate g in one
// function and under gate h in another does not close a cycle whose
// other edges are made under g and under h). A lock held
// on entry counts when every call site holds it (Inherited), not when
// it is only assumed held because the function releases it (Assumed).
// A cycle two of whose edges share a gate is not reported: the two
// goroutines making them cannot both be inside the gate, so the cycle
// never closes (a catalog moving rows between two tables in either
// order, always under its schema lock). The first lock of an edge,
// write-locked, counts like a gate against the other edges (a three-lock
// cycle one of whose edges is made under another's first lock cannot
// close; its two-lock part is reported if it is a cycle). A read-locked
// gate does not count: two readers are not excluded from each other.
// Nestings of two instances of one class are not reported when every
// nesting of that class in the package is made under a common gate.
//
// # Waiting for a goroutine to exit
//
// An edge made only after a goroutine has exited cannot deadlock with an
// edge made only inside it. An exit channel is an unexported channel
// field or package-level variable closed by exactly one defer close(ch)
// registered first in its function (it runs last, when the function
// returns or panics), that function running only in goroutines started
// by go statements; the channel is otherwise only made into a fresh
// allocation, received from, compared or converted to a receive-only
// channel, so nothing sends on it or closes it elsewhere. An edge both of
// whose acquisitions follow, on every path through its function, a plain
// receive from an exit channel is made only after the closing function
// has returned; an edge made in a function that runs only inside the
// closing function (the closer itself, or a function not exported, not an
// interface method called in the package, not used as a value other than
// in a table the package initializer fills, and called only by such
// functions, not by go statements) is made only before. A cycle with one
// edge of each kind is not reported: yamux's Session.Close waits on
// <-s.recvDoneCh before it locks streamLock then each stream's stateLock,
// and Stream.processFlags (stateLock then streamLock) runs only inside
// recvLoop, which defers close(s.recvDoneCh), reached through its table
// of handlers. Where an edge is seen in several functions, only what
// holds of all of them counts. Edges between locks of package-level
// variables are never taken as made after the exit (every goroutine
// running the closer shares them). Callers are found by VTA over the
// package's functions and its initializer.
//
// # Sites
//
// Each warning's Sites are the key program locations of a failing
// execution, in order. For a cycle X1→X2→…→Xn→X1 whose i'th edge is
// observed on path i: the acquisition of X1 on path 1, of X2 on path 2, …,
// of Xn on path n, then X2 acquired while holding X1 (path 1), X3 while
// holding X2 (path 2), …, X1 while holding Xn (path n). For a 2-cycle:
// [A (path 1), B (path 2), B holding A (path 1), A holding B (path 2)].
// For nested instances of one class: [outer acquired, inner acquired while
// holding outer]. For a double lock or a recursive read lock: [first
// lock, second lock]. For a leak: [acquisition, the return that leaks].
// Acquisitions made in a callee are located at the call, with the callee
// chain in Site.Chain.
//
// # Not modelled
//
// Only mutexes (sync.Mutex, sync.RWMutex, sync.Locker) are checked: the
// channels used as mutexes and the atomic flags used as try-locks that
// package lockset models for the race analyzer are left out of the
// lock-order graph, the double locks and the leaks (a flag never blocks
// and is often released by the goroutine its holder hands the work to;
// a blocking send on a channel mutex is a channel operation).
// Locks held on only some paths into a point are not held there (a
// must-analysis: no report unless every path holds the lock), except for
// the double locks along a path, the leaks at a merge above, and the
// acquisitions a loop makes on every iteration, ordered after the locks
// its first iteration holds (a retry loop whose call releases the
// caller's lock after taking its own: kubernetes13135); a
// re-acquisition guarded by a boolean flag (if !locked { mu.Lock() }) is
// not reported, also through a call passing the flag as a constant
// (c.remove(k, true) under c.mu; c.remove(k, false) under it is a double
// lock), nor is a lock held on some paths into a merge and
// released (on some path) after it, whose other paths would unlock an
// unlocked mutex (Clang reports that join too). The paths searched from
// such a merge (for the re-acquisition, for the return) follow only the
// branches that the conditions tested on the way to it allow, for
// conditions that hold one value for the whole call (a parameter, also
// one a function literal captures, or a value computed outside every
// loop): if batched { mu.Lock() } ... if batched { mu.Unlock() }
// releases on every path that locked. Other correlations (two
// conditions computed alike, a field tested twice) are not followed. Channels are
// named by the field or package-level variable holding them, or by the
// function making a local one; local channels passed to a function,
// stored or returned, channels in parameters or results of calls,
// channels made with a buffer (or with a size not known), sends on
// channels whose making is not seen, locks the callers hold (an
// operation in a helper called under the lock), and operations in a
// select are not checked for locks held across them (the cases of a select count
// as the peers of a blocked operation: a non-blocking send made under the
// lock, select { case ch <- v: default: }, needs it as a plain send does). Recursion is
// approximated (inside a recursive cycle, the function being summarized
// has no effect). Gates are seen per function that makes an edge: a
// function called under different gates from different callers makes
// its edges under none. Up to eight observations with different gates
// are kept per edge. Instances are told apart by access path only; elements
// of slices at variable indices and map values have unknown instances
// and are never reported as double or nested locks, except through an
// element's pointer back to the owner of the container (for _, r :=
// range s.replicas { r.store.Status() } under s.mu is s.mu again:
// cockroach3710); a field of another object is known only when a
// constructor of the package stored the argument there and nothing else
// stores to it (NewMembersAPI(c).Leader() calling c.Do: etcd6708). Gates are lock
// classes, not instances: two goroutines holding the gate class of two
// different values are taken to exclude each other. Nesting two instances
// is silent when the inner acquisition is dominated by an ordering
// comparison (<, <=, >, >=), in the function or at every call site of it,
// when the instances come from a swap (phi), and when both hang off one
// variable (n.mu then n.parent.mu: hierarchical locking). A double lock
// through an interface implementation that holds a back pointer to its
// owner stored in place (c.b = &rr{cc: c}; c.b.Update() under c.mu,
// Update locking r.cc.mu) is not reported: the two instances are not
// known to be one.
// Calls of
// function values VTA cannot resolve, locks taken by the
// standard library, functions the standard library calls other than
// those of its synchronous runners and the String and Error methods of
// what it prints (an http.Handler, a comparison heap.Push calls, a
// Format method, a value printed through an interface whose dynamic type
// is not known, printing functions of other packages), sync.Locker values whose dynamic type is not visible
// in the package, reflection and unsafe are ignored. A function holding a
// lock on every return (or on every nil-error return) is taken for a
// lock helper, and not reported as leaking, as soon as anything in the
// package releases a lock of the class it did not acquire itself: which
// callers release it after which call is not checked, so one unlock
// helper of the class exempts every function returning with the class
// held. Conditional lock helpers are not checked for leaks: functions
// whose last result is a bool, functions returning a function (the
// release); nor are functions deferring calls the analysis cannot
// resolve. Returns after a recovered panic are ignored. TryLock never blocks and adds
// no edge. RWR needs a write acquisition of the same class in the package
// or its dependencies. A cycle is reported only when one of its edges
// found in the package involves no interface method or function value
// call, or does not wrap: cycles made only of methods calling, through
// an interface, the method of the same name are decorators wrapping one
// another (zapcore's BufferedWriteSyncer and lockedWriteSyncer), which
// deadlock only when composed both ways. A
// cycle made only of edges of other packages that do not import one
// another is not reported. The wait for a goroutine's exit is matched by
// class, not by instance: a receive from one value's exit channel is
// taken to wait for the goroutine that locks that value's mutexes, and a
// closing function started more than once for one channel is not
// noticed. A receive from an exit channel counts in the function making
// it only, not at the call sites of a function that locks after it; a
// close of the channel at every return without a defer is not
// recognized; a function value handed out of the package through a table
// the initializer fills is not followed. A closure's call of a function
// value its maker read from a field before making it (a wrapper calling
// the callback it replaces) is not taken to reach that closure, nor
// closures made after the read; nor, when two functions each wrap the
// callback (a session's option wrapping onRevoked, then the group's
// setup logging around each hook through a pointer to it), the other
// wrapper: each calls only what was installed before it, so a chain of
// two wrappers that lock one mutex is not seen. Values copied between
// fields of one function type (onLost from onRevoked) still merge the
// wrappers.
//
// FactsAnalyzer is Analyzer without its checks: it exports the same
// Orders fact and reports nothing. cmd/confirmvet runs it on the packages
// go vet hands it only for their facts (the dependencies of the packages
// named). Its memory is one function's lock trace at a time, where the
// checks keep every function's.
package lockorder
