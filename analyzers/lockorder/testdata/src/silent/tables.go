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
