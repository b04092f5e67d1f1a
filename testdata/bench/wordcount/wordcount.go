// Package wordcount counts words with a pool of workers.
package wordcount

import (
	"sort"
	"strings"
	"sync"
)

// A Counter accumulates word counts from several workers.
type Counter struct {
	mu     sync.Mutex
	counts map[string]int
	lines  int
	merges int
}

// NewCounter returns an empty counter.
func NewCounter() *Counter { return &Counter{counts: make(map[string]int)} }

// merge adds the counts of one worker.
func (c *Counter) merge(local map[string]int, lines int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for w, n := range local {
		c.counts[w] += n
	}
	c.lines += lines
	c.merges++
}

// Lines returns the number of lines counted.
func (c *Counter) Lines() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lines
}

// Counts returns a copy of the counts.
func (c *Counter) Counts() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.counts))
	for w, n := range c.counts {
		out[w] = n
	}
	return out
}

// Add counts the words of text with the given number of workers.
func (c *Counter) Add(text string, workers int) {
	lines := make(chan string, 16)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make(map[string]int)
			n := 0
			for line := range lines {
				for _, w := range strings.Fields(line) {
					local[strings.ToLower(strings.Trim(w, ".,;:!?"))]++
				}
				n++
			}
			c.merge(local, n)
		}()
	}
	for _, line := range strings.Split(text, "\n") {
		lines <- line
	}
	close(lines)
	wg.Wait()
}

// A WordCount is a word and how often it occurs.
type WordCount struct {
	Word  string
	Count int
}

// Top returns the n most frequent words, most frequent first, ties in
// alphabetical order.
func Top(counts map[string]int, n int) []WordCount {
	all := make([]WordCount, 0, len(counts))
	for w, c := range counts {
		all = append(all, WordCount{w, c})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Count != all[j].Count {
			return all[i].Count > all[j].Count
		}
		return all[i].Word < all[j].Word
	})
	if len(all) > n {
		all = all[:n]
	}
	return all
}
