package indirect

import (
	"sync"
	"time"
)

// A callee that releases its caller's lock, waits and takes it back,
// while the caller holds another lock it took after the first: the
// re-acquisition is ordered after that lock, against the caller's own
// order (moby4951).

type DeviceSet struct {
	sync.Mutex
	infos map[string]*DevInfo
}

type DevInfo struct {
	lock sync.Mutex
	name string
}

func (d *DeviceSet) DeleteDevice(hash string) {
	d.Lock()
	defer d.Unlock()
	info := d.infos[hash]
	info.lock.Lock() // want `lock-order cycle: \(\*indirect.DeviceSet\).DeleteDevice acquires \(indirect.DeviceSet\).Mutex while holding \(indirect.DevInfo\).lock, but \(\*indirect.DeviceSet\).DeleteDevice acquires \(indirect.DevInfo\).lock while holding \(indirect.DeviceSet\).Mutex`
	defer info.lock.Unlock()
	d.removeAndWait()
}

func (d *DeviceSet) removeAndWait() {
	d.Unlock()
	time.Sleep(time.Millisecond)
	d.Lock()
}

// Its twin releases the device's lock before it waits.
func (d *DeviceSet) DeactivateDevice(hash string) {
	d.Lock()
	defer d.Unlock()
	info := d.infos[hash]
	info.lock.Lock()
	info.name = ""
	info.lock.Unlock()
	d.removeAndWait()
}

// A condition with a timeout built on a sync.Locker: Wait releases L and
// takes it back, as sync.Cond.Wait does. A loop calling it under the lock
// takes nothing twice (commons-pool's TimeoutCond).
type TimeoutCond struct {
	L      sync.Locker
	signal chan int
}

func NewTimeoutCond(l sync.Locker) *TimeoutCond {
	return &TimeoutCond{L: l, signal: make(chan int)}
}

func (c *TimeoutCond) Wait() bool {
	c.L.Unlock()
	defer c.L.Lock()
	_, ok := <-c.signal
	return ok
}

type Deque struct {
	lock    sync.Mutex
	notFull *TimeoutCond
	items   []int
}

func NewDeque() *Deque {
	d := &Deque{}
	d.notFull = NewTimeoutCond(&d.lock)
	return d
}

func (d *Deque) Put(v int) {
	d.lock.Lock()
	defer d.lock.Unlock()
	for len(d.items) > 8 {
		d.notFull.Wait()
	}
	d.items = append(d.items, v)
}

// The same with a condition whose L is known to be the queue's mutex.
type signalCond struct {
	L      sync.Locker
	signal chan int
}

func (c *signalCond) Wait() {
	c.L.Unlock()
	defer c.L.Lock()
	<-c.signal
}

type Stack struct {
	lock    sync.Mutex
	notFull *signalCond
	items   []int
}

func NewStack() *Stack {
	s := &Stack{}
	s.notFull = &signalCond{L: &s.lock, signal: make(chan int)}
	return s
}

func (s *Stack) Push(v int) {
	s.lock.Lock()
	defer s.lock.Unlock()
	for len(s.items) > 8 {
		s.notFull.Wait()
	}
	s.items = append(s.items, v)
}
