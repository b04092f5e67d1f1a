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
// cycle, and is the one reported.
type Witnessed struct {
	schema         sync.Mutex
	tableA, tableB sync.Mutex
}

func (c *Witnessed) MoveAB() {
	c.schema.Lock()
	defer c.schema.Unlock()
	c.tableA.Lock()
	c.tableB.Lock()
	c.tableB.Unlock()
	c.tableA.Unlock()
}

func (c *Witnessed) Audit() {
	c.tableA.Lock() // want `lock-order cycle: \(\*a.Witnessed\).Audit acquires \(a.Witnessed\).tableB while holding \(a.Witnessed\).tableA`
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

// A Relay takes in then out (Forward), out then audit only while it holds
// in (Trace), and audit then in (Check). The three orders cannot close
// one cycle: Forward and Trace both hold in. Trace's in→audit and Check's
// audit→in can: that cycle is the one reported.
type Relay struct {
	in, out, audit sync.Mutex
}

func (r *Relay) Forward() {
	r.in.Lock()
	r.out.Lock()
	r.out.Unlock()
	r.in.Unlock()
}

func (r *Relay) Trace() {
	r.in.Lock()
	r.out.Lock()
	r.audit.Lock()
	r.audit.Unlock()
	r.out.Unlock()
	r.in.Unlock()
}

func (r *Relay) Check() {
	r.audit.Lock() // want `lock-order cycle: \(\*a.Relay\).Check acquires \(a.Relay\).in while holding \(a.Relay\).audit, but \(\*a.Relay\).Trace acquires \(a.Relay\).audit while holding \(a.Relay\).in`
	r.in.Lock()
	r.in.Unlock()
	r.audit.Unlock()
}

// As silent.Depot, but crate then shelf is also taken under neither gate
// (Sweep): with Stock and Count, the three can deadlock. The witness of
// the third edge is Sweep's, the one no gate excludes.
type Depot struct {
	intake, audit   sync.Mutex
	shelf, bin, crt sync.Mutex
}

func (d *Depot) Stock() {
	d.intake.Lock()
	defer d.intake.Unlock()
	d.shelf.Lock()
	d.bin.Lock()
	d.bin.Unlock()
	d.shelf.Unlock()
}

func (d *Depot) Count() {
	d.audit.Lock()
	defer d.audit.Unlock()
	d.bin.Lock() // want `lock-order cycle \(a.Depot\).bin -> \(a.Depot\).crt -> \(a.Depot\).shelf -> \(a.Depot\).bin: \(\*a.Depot\).Count acquires`
	d.crt.Lock()
	d.crt.Unlock()
	d.bin.Unlock()
}

func (d *Depot) Recount() {
	d.audit.Lock()
	defer d.audit.Unlock()
	d.crt.Lock()
	d.shelf.Lock()
	d.shelf.Unlock()
	d.crt.Unlock()
}

func (d *Depot) Restock() {
	d.intake.Lock()
	defer d.intake.Unlock()
	d.crt.Lock()
	d.shelf.Lock()
	d.shelf.Unlock()
	d.crt.Unlock()
}

func (d *Depot) Sweep() {
	d.crateThenShelf()
}

func (d *Depot) crateThenShelf() {
	d.crt.Lock()
	d.shelf.Lock()
	d.shelf.Unlock()
	d.crt.Unlock()
}
