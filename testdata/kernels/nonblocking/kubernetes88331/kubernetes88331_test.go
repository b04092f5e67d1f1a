package kubernetes88331

import (
	"sync"
	"testing"
	"time"
)

const unschedulableQTimeInterval = 60 * time.Second

type Pod struct {
	Namespace string
	Name      string
	Priority  int32
}

func nsNameForPod(p *Pod) string { return p.Namespace + "/" + p.Name }

type podInfo struct {
	Pod       *Pod
	Timestamp time.Time
	Attempts  int
}

type UnschedulablePodsMap struct {
	podInfoMap map[string]*podInfo
}

func (u *UnschedulablePodsMap) addOrUpdate(pInfo *podInfo) {
	u.podInfoMap[nsNameForPod(pInfo.Pod)] = pInfo
}

func (u *UnschedulablePodsMap) delete(pod *Pod) {
	delete(u.podInfoMap, nsNameForPod(pod))
}

func (u *UnschedulablePodsMap) get(pod *Pod) *podInfo {
	return u.podInfoMap[nsNameForPod(pod)]
}

type PriorityQueue struct {
	stop chan struct{}

	lock sync.RWMutex
	cond sync.Cond

	activeQ        []*podInfo
	unschedulableQ *UnschedulablePodsMap
	flushPeriod    time.Duration
}

func NewPriorityQueue(flushPeriod time.Duration) *PriorityQueue {
	pq := &PriorityQueue{
		stop:           make(chan struct{}),
		unschedulableQ: &UnschedulablePodsMap{podInfoMap: make(map[string]*podInfo)},
		flushPeriod:    flushPeriod,
	}
	pq.cond.L = &pq.lock
	return pq
}

func until(f func(), period time.Duration, stopCh <-chan struct{}) {
	ticker := time.NewTicker(period)
	defer ticker.Stop()
	for {
		select {
		case <-stopCh:
			return
		case <-ticker.C:
			f()
		}
	}
}

func (p *PriorityQueue) Run() {
	go until(p.flushUnschedulableQLeftover, p.flushPeriod, p.stop)
}

func (p *PriorityQueue) Close() {
	p.lock.Lock()
	defer p.lock.Unlock()
	close(p.stop)
	p.cond.Broadcast()
}

func (p *PriorityQueue) AddUnschedulableIfNotPresent(pod *Pod) {
	p.lock.Lock()
	defer p.lock.Unlock()
	if p.unschedulableQ.get(pod) != nil {
		return
	}
	p.unschedulableQ.addOrUpdate(&podInfo{Pod: pod, Timestamp: time.Now()})
}

func (p *PriorityQueue) movePodsToActiveQueue(podInfoList []*podInfo) {
	for _, pInfo := range podInfoList {
		p.activeQ = append(p.activeQ, pInfo)
		p.unschedulableQ.delete(pInfo.Pod)
	}
	p.cond.Broadcast()
}

func (p *PriorityQueue) flushUnschedulableQLeftover() {
	p.lock.Lock()
	defer p.lock.Unlock()

	var podsToMove []*podInfo
	currentTime := time.Now()
	for _, pInfo := range p.unschedulableQ.podInfoMap {
		lastScheduleTime := pInfo.Timestamp // race
		if currentTime.Sub(lastScheduleTime) > unschedulableQTimeInterval {
			podsToMove = append(podsToMove, pInfo)
		}
	}
	if len(podsToMove) > 0 {
		p.movePodsToActiveQueue(podsToMove)
	}
}

func (p *PriorityQueue) Pop() *Pod {
	p.lock.Lock()
	defer p.lock.Unlock()
	for len(p.activeQ) == 0 {
		select {
		case <-p.stop:
			return nil
		default:
		}
		p.cond.Wait()
	}
	pInfo := p.activeQ[0]
	p.activeQ = p.activeQ[1:]
	pInfo.Attempts++
	return pInfo.Pod
}

func TestFlushUnschedulableQLeftover(t *testing.T) {
	q := NewPriorityQueue(time.Millisecond)
	q.Run()
	defer q.Close()

	midPod := &Pod{Namespace: "ns1", Name: "mid-pod", Priority: 10}
	highPod := &Pod{Namespace: "ns1", Name: "high-pod", Priority: 100}
	q.AddUnschedulableIfNotPresent(midPod)
	q.AddUnschedulableIfNotPresent(highPod)

	q.lock.RLock()
	mInfo := q.unschedulableQ.get(midPod)
	q.lock.RUnlock()
	mInfo.Timestamp = mInfo.Timestamp.Add(-2 * unschedulableQTimeInterval) // race
	time.Sleep(10 * q.flushPeriod)

	if p := q.Pop(); p != midPod {
		t.Errorf("Expected that %v is popped, got %v", midPod.Name, p)
	}
}
