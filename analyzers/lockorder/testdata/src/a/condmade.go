package a

import "sync"

// The Cond is made by the caller of a constructor, on the value it
// returned: its L is still that value's read lock.

type Executor struct {
	configMu   sync.RWMutex
	configCond *sync.Cond
	otherMu    sync.Mutex
	otherCond  *sync.Cond
}

func newExecutor() (*Executor, error) { return &Executor{}, nil }

func StartExecutor() *Executor {
	e, _ := newExecutor()
	e.configCond = sync.NewCond(e.configMu.RLocker())
	e.otherCond = sync.NewCond(&e.otherMu)
	return e
}

func (e *Executor) cache() {
	e.configMu.RLock()
	defer e.configMu.RUnlock()
}

func (e *Executor) update() {
	e.configMu.Lock()
	defer e.configMu.Unlock()
}

func (e *Executor) Exec() {
	e.configCond.L.Lock() // want `recursive read lock: \(\*a.Executor\).Exec read-locks e.configMu via \(\*a.Executor\).cache`
	defer e.configCond.L.Unlock()
	e.cache()
}

func (e *Executor) ExecOther() {
	e.otherCond.L.Lock() // a different lock: no recursion
	defer e.otherCond.L.Unlock()
	e.cache()
}
