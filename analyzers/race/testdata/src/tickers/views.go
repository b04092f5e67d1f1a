package tickers

import "sync"

type message struct{ flags map[string]bool }

// A Mailbox's messages are read and written under its mutex; a View
// walks them with forEach, which locks and hands the callback on to
// forEachLocked, which calls it: the callback runs under the mutex.
type Mailbox struct {
	mutex sync.Mutex
	l     []*message
}

type View struct {
	*Mailbox
}

func (m *Mailbox) Count(f string) int {
	m.mutex.Lock()
	defer m.mutex.Unlock()
	n := 0
	for _, x := range m.l {
		if x.flags[f] {
			n++
		}
	}
	return n
}

func (m *Mailbox) Add(f string) {
	m.mutex.Lock()
	defer m.mutex.Unlock()
	for _, x := range m.l {
		x.flags[f] = true
	}
}

func (m *Mailbox) Del(f string) {
	m.mutex.Lock()
	defer m.mutex.Unlock()
	for _, x := range m.l {
		delete(x.flags, f)
	}
}

func (v *View) forEach(f func(*message)) {
	v.mutex.Lock()
	defer v.mutex.Unlock()
	v.forEachLocked(f)
}

func (v *View) forEachLocked(f func(*message)) {
	for _, x := range v.l {
		f(x)
	}
}

// Mark's callback runs under the mutex: silent.
func (v *View) Mark(flag string) {
	v.forEach(func(x *message) {
		x.flags[flag] = true
	})
}

// Unmark hands its callback on the same way, through functions that do
// not lock.
func (v *View) Unmark(flag string) {
	v.scan(func(x *message) {
		delete(x.flags, flag) // want `possible data race: \(\*tickers.View\).Unmark\$1 writes map contents of \(tickers.message\).flags without holding \(tickers.Mailbox\).mutex`
	})
}

func (v *View) scan(f func(*message)) {
	v.scanAll(f)
}

func (v *View) scanAll(f func(*message)) {
	for _, x := range v.l {
		f(x)
	}
}
