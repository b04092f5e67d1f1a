package goroutines

import (
	"sync"
	"testing"
)

// A benchmark presetting the spigot's state on the fixture it built is
// left alone: whether its writes meet the loop's turns on that setup.
func BenchmarkSpigot(b *testing.B) {
	p := NewSpigot()
	for i := 0; i < b.N; i++ {
		p.state = 1
		p.in <- i
	}
}

// Its own variables stay checked.
func BenchmarkSum(b *testing.B) {
	var wg sync.WaitGroup
	sum := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sum += b.N // want `possible data race: captured variable sum in goroutines.BenchmarkSum is written by goroutine goroutines.BenchmarkSum\$1 and written by another instance`
		}()
	}
	wg.Wait()
}

// Nor do the goroutines a benchmark's goroutines leave running: the
// spigot each opens runs on the state the benchmark preset.
func BenchmarkSpigots(b *testing.B) {
	p := &Spigot{in: make(chan int)}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Open()
			p.state = 1
		}()
	}
	wg.Wait()
}
