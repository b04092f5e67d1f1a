package silent

import "sync"

// A Catalog's two tables are taken in both orders, but always under the
// gate lock schema: the two orders never run at once.
type Catalog struct {
	schema         sync.Mutex
	tableA, tableB sync.Mutex
	tableC         sync.Mutex
}

func (c *Catalog) MoveAB() {
	c.schema.Lock()
	defer c.schema.Unlock()
	c.tableA.Lock()
	c.tableB.Lock()
	c.tableB.Unlock()
	c.tableA.Unlock()
}

func (c *Catalog) MoveBA() {
	c.schema.Lock()
	defer c.schema.Unlock()
	c.tableB.Lock()
	c.tableA.Lock()
	c.tableA.Unlock()
	c.tableB.Unlock()
}

// moveBC runs only under the schema lock of its caller. With MoveAB it
// makes two edges of the cycle tableA -> tableB -> tableC -> tableA
// under schema, so the third, made by MoveCA without it, cannot close
// the cycle.
func (c *Catalog) moveBC() {
	c.tableB.Lock()
	c.tableC.Lock()
	c.tableC.Unlock()
	c.tableB.Unlock()
}

func (c *Catalog) Rebalance() {
	c.schema.Lock()
	defer c.schema.Unlock()
	c.moveBC()
}

func (c *Catalog) MoveCA() {
	c.tableC.Lock()
	c.tableA.Lock()
	c.tableA.Unlock()
	c.tableC.Unlock()
}

// catalogs is the gate of every nesting of two catalogs' tableA.
var catalogs sync.Mutex

func Merge(from, to *Catalog) {
	catalogs.Lock()
	defer catalogs.Unlock()
	from.tableA.Lock()
	to.tableA.Lock()
	to.tableA.Unlock()
	from.tableA.Unlock()
}

// A Depot has two gates, intake and audit. Shelf then bin is taken under
// intake (Stock), bin then crate under audit (Count), and crate then
// shelf both under audit (Recount) and under intake (Restock). Whichever
// of the two the third goroutine runs, it shares a gate with one of the
// other two: the cycle shelf -> bin -> crate -> shelf cannot close.
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
	d.bin.Lock()
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
