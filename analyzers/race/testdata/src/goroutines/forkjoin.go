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
