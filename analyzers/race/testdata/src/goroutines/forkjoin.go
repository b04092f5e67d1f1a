package goroutines

import "sync"

// A RemoteFile's reads fan out to a goroutine that the reading function
// waits for before it returns: the goroutine runs under the lock its
// callers hold around the read.
type RemoteFile struct {
	mu     sync.RWMutex
	handle string
	size   int
}

// ReadAt reads under the read lock.
func (f *RemoteFile) ReadAt(b []byte) int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.readAt(b)
}

// Read reads under the lock.
func (f *RemoteFile) Read(b []byte) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.readAt(b)
}

// ReadChunks reads under the read lock, fanning the chunks out to
// workers.
func (f *RemoteFile) ReadChunks(n int) int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.readChunks(n)
}

// readChunks is joined with its goroutines through a chain: the slicer
// closes work as it returns, the workers range over work and then call
// Done, a collector waits for them and closes results, and readChunks
// ranges over results. Every goroutine runs within the call, under its
// callers' lock: silent.
func (f *RemoteFile) readChunks(n int) int {
	work := make(chan int)
	go func() {
		defer close(work)
		for i := 0; i < n; i++ {
			work <- len(f.handle) // silent
		}
	}()
	results := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for w := range work {
				results <- w + len(f.handle) // silent
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	total := 0
	for r := range results {
		total += r
	}
	return total
}

func (f *RemoteFile) readAt(b []byte) int {
	work := make(chan string)
	go func() {
		defer close(work)
		work <- f.handle // silent: readAt waits for the goroutine, under its callers' lock
	}()
	n := 0
	for h := range work {
		n += len(h)
	}
	return n + len(b)
}

// Prefetch starts a read it does not wait for.
func (f *RemoteFile) Prefetch() {
	f.mu.RLock()
	defer f.mu.RUnlock()
	f.prefetch()
}

func (f *RemoteFile) prefetch() {
	go func() {
		f.size = len(f.handle) // want `possible data race: \(\*goroutines.RemoteFile\).prefetch\$1 reads \(goroutines.RemoteFile\).handle without holding \(goroutines.RemoteFile\).mu`
	}()
}

// Close forgets the handle.
func (f *RemoteFile) Close() {
	f.mu.Lock()
	f.handle = ""
	f.mu.Unlock()
}

// Handle returns the handle.
func (f *RemoteFile) Handle() string {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.handle
}

// Reopen sets the handle.
func (f *RemoteFile) Reopen(h string) {
	f.mu.Lock()
	f.handle = h
	f.mu.Unlock()
}
