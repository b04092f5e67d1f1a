package race

// A callChain lists the calls from the analysed function down to an
// access, outermost first: the functions called on the way. Accesses
// bound through the same calls share their tails, so binding an access
// at a call adds one link instead of copying the list (deep call trees
// of large packages made these copies most of the analyzer's memory).
type callChain struct {
	name string
	next *callChain
	n    int // links from here to the end
}

// push returns the chain of a call of name followed by c.
func (c *callChain) push(name string) *callChain {
	return &callChain{name: name, next: c, n: c.len() + 1}
}

// len returns the number of calls in c.
func (c *callChain) len() int {
	if c == nil {
		return 0
	}
	return c.n
}

// names returns the calls of c, outermost first; nil for an empty chain.
func (c *callChain) names() []string {
	if c == nil {
		return nil
	}
	out := make([]string, 0, c.n)
	for ; c != nil; c = c.next {
		out = append(out, c.name)
	}
	return out
}

// chainOf returns the chain of names, outermost first.
func chainOf(names []string) *callChain {
	var c *callChain
	for i := len(names) - 1; i >= 0; i-- {
		c = c.push(names[i])
	}
	return c
}
