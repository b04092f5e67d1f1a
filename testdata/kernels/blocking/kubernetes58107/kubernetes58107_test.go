package kubernetes58107

import (
	"sync"
	"testing"
)

type Type struct {
	cond         *sync.Cond
	queue        []string
	dirty        map[string]bool
	processing   map[string]bool
	shuttingDown bool
}

func NewNamedRateLimitingQueue(name string) *Type {
	return &Type{
		cond:       sync.NewCond(&sync.Mutex{}),
		dirty:      make(map[string]bool),
		processing: make(map[string]bool),
	}
}

func (q *Type) Add(item string) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	if q.shuttingDown || q.dirty[item] {
		return
	}
	q.dirty[item] = true
	if q.processing[item] {
		return
	}
	q.queue = append(q.queue, item)
	q.cond.Signal()
}

func (q *Type) Get() (string, bool) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for len(q.queue) == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if len(q.queue) == 0 {
		return "", true
	}
	item := q.queue[0]
	q.queue = q.queue[1:]
	q.processing[item] = true
	delete(q.dirty, item)
	return item, false
}

func (q *Type) Done(item string) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	delete(q.processing, item)
	if q.dirty[item] {
		q.queue = append(q.queue, item)
		q.cond.Signal()
	}
}

func (q *Type) ShutDown() {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	q.shuttingDown = true
	q.cond.Broadcast()
}

type ResourceQuota struct {
	Key      string
	Hard     map[string]int64
	Used     map[string]int64
	Observed bool
}

type ResourceQuotaController struct {
	rqLister map[string]*ResourceQuota
	listerMu sync.Mutex

	queue             *Type
	missingUsageQueue *Type

	workerLock         sync.RWMutex
	monitoredResources []string

	synced chan string
}

func NewResourceQuotaController() *ResourceQuotaController {
	return &ResourceQuotaController{
		rqLister:          make(map[string]*ResourceQuota),
		queue:             NewNamedRateLimitingQueue("resourcequota_primary"),
		missingUsageQueue: NewNamedRateLimitingQueue("resourcequota_priority"),
		synced:            make(chan string, 1),
	}
}

func (rq *ResourceQuotaController) addQuota(quota *ResourceQuota) {
	rq.listerMu.Lock()
	rq.rqLister[quota.Key] = quota
	rq.listerMu.Unlock()
	if quota.Used == nil {
		rq.missingUsageQueue.Add(quota.Key)
		return
	}
	rq.queue.Add(quota.Key)
}

func (rq *ResourceQuotaController) syncResourceQuotaFromKey(key string) error {
	rq.listerMu.Lock()
	quota, ok := rq.rqLister[key]
	if !ok {
		rq.listerMu.Unlock()
		return nil
	}
	if quota.Used == nil {
		quota.Used = make(map[string]int64)
		for name := range quota.Hard {
			quota.Used[name] = 0
		}
		rq.listerMu.Unlock()
		rq.queue.Add(key)
		return nil
	}
	quota.Observed = true
	rq.listerMu.Unlock()
	select {
	case rq.synced <- key:
	default:
	}
	return nil
}

func (rq *ResourceQuotaController) worker(queue *Type) func() {
	workFunc := func() bool {
		rq.workerLock.RLock() // deadlock
		defer rq.workerLock.RUnlock()
		key, quit := queue.Get()
		if quit {
			return true
		}
		defer queue.Done(key)
		rq.syncResourceQuotaFromKey(key)
		return false
	}
	return func() {
		for {
			if quit := workFunc(); quit {
				return
			}
		}
	}
}

func (rq *ResourceQuotaController) Run(workers int, stopCh <-chan struct{}) {
	for i := 0; i < workers; i++ {
		go rq.worker(rq.queue)()
		go rq.worker(rq.missingUsageQueue)()
	}
	<-stopCh
	rq.queue.ShutDown()
	rq.missingUsageQueue.ShutDown()
}

func (rq *ResourceQuotaController) Sync(resources []string) {
	rq.workerLock.Lock() // deadlock
	defer rq.workerLock.Unlock()
	rq.monitoredResources = resources
}

func TestKubernetes58107(t *testing.T) {
	rq := NewResourceQuotaController()
	stopCh := make(chan struct{})
	go rq.Run(1, stopCh)

	go rq.Sync([]string{"pods", "services", "persistentvolumeclaims"})
	rq.addQuota(&ResourceQuota{Key: "default/compute-resources", Hard: map[string]int64{"pods": 10}})

	<-rq.synced
	close(stopCh)
}
