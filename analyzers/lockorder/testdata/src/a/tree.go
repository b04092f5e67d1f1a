package a

import "sync"

// A Node of a tree locks itself, then a child: AddChild, Adopt and Index
// link the child below the node, so no call locks them the other way
// round (that would make a node its own ancestor). Silent.
type Node struct {
	mu       sync.Mutex
	parent   *Node
	children []*Node
	byName   map[string]*Node
	weight   int
}

func (n *Node) setParent(p *Node) {
	n.mu.Lock()
	n.parent = p
	n.mu.Unlock()
}

// AddChild makes c a child of n.
func (n *Node) AddChild(c *Node) {
	n.mu.Lock()
	defer n.mu.Unlock()
	c.setParent(n)
	n.children = append(n.children, c)
}

// Adopt appends c to n's children.
func (n *Node) Adopt(c *Node) {
	n.mu.Lock()
	defer n.mu.Unlock()
	c.mu.Lock()
	c.weight++
	c.mu.Unlock()
	n.children = append(n.children, c)
}

// Index files c under its name.
func (n *Node) Index(name string, c *Node) {
	n.mu.Lock()
	defer n.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	n.byName[name] = c
}

// Absorb adds c's weight to n's: peers, n.Absorb(c) and c.Absorb(n)
// deadlock.
func (n *Node) Absorb(c *Node) {
	n.mu.Lock() // want `lock-order cycle: \(\*a.Node\).Absorb locks c.mu \(\(a.Node\).mu\) while holding n.mu of the same class`
	defer n.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	n.weight += c.weight
}
