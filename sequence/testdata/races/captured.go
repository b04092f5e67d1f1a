package races

// Gauge is written by a goroutine once a captured flag is set.
type Gauge struct{ v int }

func runGauge(g *Gauge, done chan bool) int {
	on := false
	go func() {
		if on {
			g.v++
		}
		done <- true
	}()
	on = true
	return g.v
}
