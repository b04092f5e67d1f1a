package kubernetes81091

import (
	"strconv"
	"sync"
	"testing"
)

// A FilterPlugin decides whether a pod fits a node.
type FilterPlugin interface {
	Name() string
	Filter(node string) bool
}

// fakeFilterPlugin counts the calls made to it, without a lock: the
// scheduler calls every plugin from several workers at once.
type fakeFilterPlugin struct {
	numFilterCalled int
	fail            map[string]bool
}

func (pl *fakeFilterPlugin) Name() string { return "fake" }

func (pl *fakeFilterPlugin) Filter(node string) bool {
	pl.numFilterCalled++ // race
	return !pl.fail[node]
}

type framework struct {
	filterPlugins []FilterPlugin
}

func (f *framework) runFilterPlugins(node string) bool {
	for _, pl := range f.filterPlugins {
		if !pl.Filter(node) {
			return false
		}
	}
	return true
}

// DoWorkPieceFunc does the work of one piece.
type DoWorkPieceFunc func(piece int)

// parallelizeUntil runs doWorkPiece for every piece on workers goroutines
// and waits for them, like client-go's workqueue.ParallelizeUntil.
func parallelizeUntil(workers, pieces int, doWorkPiece DoWorkPieceFunc) {
	toProcess := make(chan int, pieces)
	for i := 0; i < pieces; i++ {
		toProcess <- i
	}
	close(toProcess)
	if pieces < workers {
		workers = pieces
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for i := 0; i < workers; i++ {
		go func() {
			defer wg.Done()
			for piece := range toProcess {
				doWorkPiece(piece)
			}
		}()
	}
	wg.Wait()
}

type genericScheduler struct {
	framework *framework
	nodes     []string
}

// findNodesThatFit checks every node in parallel; each check runs all the
// filter plugins.
func (g *genericScheduler) findNodesThatFit() []bool {
	fits := make([]bool, len(g.nodes))
	checkNode := func(i int) {
		fits[i] = g.framework.runFilterPlugins(g.nodes[i])
	}
	parallelizeUntil(16, len(g.nodes), DoWorkPieceFunc(checkNode))
	return fits
}

func TestKubernetes81091(t *testing.T) {
	pl := &fakeFilterPlugin{fail: map[string]bool{"n1": true}}
	g := &genericScheduler{framework: &framework{filterPlugins: []FilterPlugin{pl}}}
	for i := 0; i < 1000; i++ {
		g.nodes = append(g.nodes, "n"+strconv.Itoa(i))
	}
	fits := g.findNodesThatFit()
	if fits[1] {
		t.Fatal("n1 fits")
	}
}
