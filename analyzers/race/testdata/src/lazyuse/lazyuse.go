// Package lazyuse uses the lazily initialized values of package lazy
// from goroutines.
package lazyuse

import "lazy"

// Serve waits for the tomb in a goroutine while killing it: the reads
// of dying and dead come after init, which sets them once. Silent.
func Serve(t *lazy.Tomb) { // want Serve:`accesses\(signals, waits\)`
	go func() {
		<-t.Dying()
		t.Done()
	}()
	t.Kill(nil)
	<-t.Dead()
}

// Watch breaks the fuse while a goroutine watches it. Silent.
func Watch(f *lazy.Fuse) { // want Watch:`accesses\(r \$0.c, .*\)`
	go f.Break()
	<-f.Watch()
}

// Peek reads dying without initializing the tomb, while a goroutine
// initializes it.
func Peek(t *lazy.Tomb) <-chan struct{} { // want Peek:`accesses\(r \$0.dying, signals\)`
	go t.Kill(nil) // want `possible data race: \(lazy.Tomb\).dying is written by goroutine \(\*lazy.Tomb\).Kill through \(\*lazy.Tomb\).init and read by lazyuse.Peek through \(\*lazy.Tomb\).PeekDying`
	return t.PeekDying()
}

// Use reads a value whose gate is checked without the lock.
func Use(l *lazy.Lazy) int { // want Use:`accesses\(r \$0.on, .*\)`
	go l.Get() // want `\(lazy.Lazy\).val is written by goroutine \(\*lazy.Lazy\).Get and read by lazyuse.Use` `\(lazy.Lazy\).on is written by goroutine`
	return l.Get()
}
