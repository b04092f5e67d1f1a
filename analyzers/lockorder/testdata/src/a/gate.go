package a

import "sync"

// As silent.Catalog, but MoveBA takes its order without the gate lock.
type Catalog struct {
	schema         sync.Mutex
	tableA, tableB sync.Mutex
}

func (c *Catalog) MoveAB() {
	c.schema.Lock()
	defer c.schema.Unlock()
	c.tableA.Lock() // want `lock-order cycle: \(\*a.Catalog\).MoveAB acquires \(a.Catalog\).tableB while holding \(a.Catalog\).tableA, but \(\*a.Catalog\).MoveBA acquires`
	c.tableB.Lock()
	c.tableB.Unlock()
	c.tableA.Unlock()
}

func (c *Catalog) MoveBA() {
	c.tableB.Lock()
	c.tableA.Lock()
	c.tableA.Unlock()
	c.tableB.Unlock()
}

// Both orders are under the gate, but for reading only: two read
// holders are not excluded from each other.
type ReadGated struct {
	schema         sync.RWMutex
	tableA, tableB sync.Mutex
}

func (c *ReadGated) MoveAB() {
	c.schema.RLock()
	defer c.schema.RUnlock()
	c.tableA.Lock() // want `lock-order cycle: \(\*a.ReadGated\).MoveAB acquires \(a.ReadGated\).tableB while holding \(a.ReadGated\).tableA`
	c.tableB.Lock()
	c.tableB.Unlock()
	c.tableA.Unlock()
}

func (c *ReadGated) MoveBA() {
	c.schema.RLock()
	defer c.schema.RUnlock()
	c.tableB.Lock()
	c.tableA.Lock()
	c.tableA.Unlock()
	c.tableB.Unlock()
}

// One nesting of two catalogs' tableA is under the gate, the other is
// not: both are reported.
var catalogs sync.Mutex

func Merge(from, to *Catalog) {
	catalogs.Lock()
	defer catalogs.Unlock()
	from.tableA.Lock() // want `lock-order cycle: a.Merge locks to.tableA`
	to.tableA.Lock()
	to.tableA.Unlock()
	from.tableA.Unlock()
}

func Split(from, to *Catalog) {
	from.tableA.Lock() // want `lock-order cycle: a.Split locks to.tableA`
	to.tableA.Lock()
	to.tableA.Unlock()
	from.tableA.Unlock()
}

// Both orders are taken under the gate, but the order tableA, tableB is
// also taken without it (Audit): one witness without the gate keeps the
// cycle.
type Witnessed struct {
	schema         sync.Mutex
	tableA, tableB sync.Mutex
}

func (c *Witnessed) MoveAB() {
	c.schema.Lock()
	defer c.schema.Unlock()
	c.tableA.Lock() // want `lock-order cycle: \(\*a.Witnessed\).MoveAB acquires \(a.Witnessed\).tableB while holding \(a.Witnessed\).tableA`
	c.tableB.Lock()
	c.tableB.Unlock()
	c.tableA.Unlock()
}

func (c *Witnessed) Audit() {
	c.tableA.Lock()
	c.tableB.Lock()
	c.tableB.Unlock()
	c.tableA.Unlock()
}

func (c *Witnessed) MoveBA() {
	c.schema.Lock()
	defer c.schema.Unlock()
	c.tableB.Lock()
	c.tableA.Lock()
	c.tableA.Unlock()
	c.tableB.Unlock()
}
