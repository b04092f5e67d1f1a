package published

import "sync"

// A Mesh is built with knots that point back at it, each kept in the
// mesh's own new map: until the constructor returns, the cluster and
// its nodes are reachable only from the constructor, however many nodes
// point at it. Silent.
type Mesh struct {
	mu    sync.Mutex
	nodes map[string]*Knot
}

// A Knot belongs to one mesh.
type Knot struct {
	addr string
	mesh *Mesh
}

// NewMesh builds a mesh of the knots at addrs.
func NewMesh(addrs []string) *Mesh {
	c := &Mesh{nodes: make(map[string]*Knot, len(addrs))}
	for _, a := range addrs {
		c.nodes[a] = &Knot{addr: a, mesh: c}
	}
	return c
}

// Add adds a node.
func (c *Mesh) Add(addr string) {
	c.mu.Lock()
	c.nodes[addr] = &Knot{addr: addr, mesh: c}
	c.mu.Unlock()
}

// Remove removes a node.
func (c *Mesh) Remove(addr string) {
	c.mu.Lock()
	delete(c.nodes, addr)
	c.mu.Unlock()
}

// Knot returns the node at addr.
func (c *Mesh) Knot(addr string) *Knot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nodes[addr]
}

// JoinMesh builds a cluster over a map of nodes the caller shares:
// the first node put there publishes the cluster, and the next write
// into the map races with the cluster's own locked ones.
func JoinMesh(nodes map[string]*Knot, addrs []string) *Mesh {
	c := &Mesh{nodes: nodes}
	for _, a := range addrs {
		c.nodes[a] = &Knot{addr: a, mesh: c} // want `possible data race: published.JoinMesh writes map contents of \(published.Mesh\).nodes without holding \(published.Mesh\).mu`
	}
	return c
}
