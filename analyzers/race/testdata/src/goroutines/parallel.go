package goroutines

import "sync"

// parallelize calls piece from n goroutines and waits for them.
func parallelize(n int, piece func(i int)) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func(i int) {
			defer wg.Done()
			piece(i)
		}(i)
	}
	wg.Wait()
}

type filterPlugin struct {
	mu     sync.Mutex
	called int
	locked int
}

func (p *filterPlugin) filter() {
	p.called++ // want `possible data race: \(goroutines.filterPlugin\).called is written by goroutine goroutines.FindNodes\$1 and written by another instance of goroutines.FindNodes\$1`
}

func (p *filterPlugin) filterLocked() {
	p.mu.Lock()
	p.locked++
	p.mu.Unlock()
}

// FindNodes runs the plugin's filter on every node at once.
func FindNodes(p *filterPlugin, nodes int) {
	parallelize(nodes, func(int) { p.filter() })
}

// FindNodesLocked counts under the plugin's lock. Silent.
func FindNodesLocked(p *filterPlugin, nodes int) {
	parallelize(nodes, func(int) { p.filterLocked() })
}
