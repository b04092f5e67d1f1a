package kubernetes30872

import (
	"errors"
	"sync"
	"testing"
)

var ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

type Cluster struct {
	Name string
}

type PopProcessFunc func(obj interface{}) error

type Queue interface {
	Add(obj interface{}) error
	Pop(process PopProcessFunc) (interface{}, error)
	HasSynced() bool
	Close()
}

type DeltaFIFO struct {
	lock                   sync.RWMutex
	cond                   sync.Cond
	items                  map[string]interface{}
	queue                  []string
	populated              bool
	initialPopulationCount int
	closed                 bool
}

func NewDeltaFIFO() *DeltaFIFO {
	f := &DeltaFIFO{items: make(map[string]interface{})}
	f.cond.L = &f.lock
	return f
}

func (f *DeltaFIFO) Replace(list []interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	for _, obj := range list {
		key := obj.(*Cluster).Name
		if _, exists := f.items[key]; !exists {
			f.queue = append(f.queue, key)
		}
		f.items[key] = obj
	}
	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(f.queue)
	}
	f.cond.Broadcast()
	return nil
}

func (f *DeltaFIFO) Add(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.populated = true
	key := obj.(*Cluster).Name
	if _, exists := f.items[key]; !exists {
		f.queue = append(f.queue, key)
	}
	f.items[key] = obj
	f.cond.Broadcast()
	return nil
}

func (f *DeltaFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock() // deadlock
	defer f.lock.Unlock()
	for {
		for len(f.queue) == 0 {
			if f.closed {
				return nil, ErrFIFOClosed
			}
			f.cond.Wait()
		}
		id := f.queue[0]
		f.queue = f.queue[1:]
		if f.initialPopulationCount > 0 {
			f.initialPopulationCount--
		}
		item, ok := f.items[id]
		if !ok {
			continue
		}
		delete(f.items, id)
		err := process(item)
		return item, err
	}
}

func (f *DeltaFIFO) HasSynced() bool {
	f.lock.Lock() // deadlock
	defer f.lock.Unlock()
	return f.populated && f.initialPopulationCount == 0
}

func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj interface{})
	DeleteFunc func(obj interface{})
}

type Controller struct {
	queue   Queue
	handler ResourceEventHandlerFuncs
}

func NewInformer(queue Queue, h ResourceEventHandlerFuncs) *Controller {
	return &Controller{queue: queue, handler: h}
}

func (c *Controller) HasSynced() bool {
	return c.queue.HasSynced()
}

func (c *Controller) processLoop() {
	for {
		_, err := c.queue.Pop(func(obj interface{}) error {
			c.handler.AddFunc(obj)
			return nil
		})
		if err == ErrFIFOClosed {
			return
		}
	}
}

func (c *Controller) Run(stopCh <-chan struct{}) {
	go func() {
		<-stopCh
		c.queue.Close()
	}()
	c.processLoop()
}

type informer struct {
	controller *Controller
	stopChan   chan struct{}
}

type federatedInformerImpl struct {
	sync.Mutex
	clusterInformer informer
	targetInformers map[string]informer
}

func NewFederatedInformer(clusterQueue Queue) *federatedInformerImpl {
	f := &federatedInformerImpl{targetInformers: make(map[string]informer)}
	f.clusterInformer.controller = NewInformer(clusterQueue, ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			f.Lock() // deadlock
			defer f.Unlock()
			cluster := obj.(*Cluster)
			f.addCluster(cluster)
		},
		DeleteFunc: func(obj interface{}) {
			f.Lock()
			defer f.Unlock()
			delete(f.targetInformers, obj.(*Cluster).Name)
		},
	})
	return f
}

func (f *federatedInformerImpl) addCluster(cluster *Cluster) {
	f.targetInformers[cluster.Name] = informer{
		controller: NewInformer(NewDeltaFIFO(), ResourceEventHandlerFuncs{}),
		stopChan:   make(chan struct{}),
	}
}

func (f *federatedInformerImpl) ClustersSynced() bool {
	f.Lock() // deadlock
	defer f.Unlock()
	return f.clusterInformer.controller.HasSynced()
}

func (f *federatedInformerImpl) Start() {
	f.Lock()
	defer f.Unlock()
	f.clusterInformer.stopChan = make(chan struct{})
	go f.clusterInformer.controller.Run(f.clusterInformer.stopChan)
}

func (f *federatedInformerImpl) Stop() {
	f.Lock()
	defer f.Unlock()
	close(f.clusterInformer.stopChan)
}

func TestKubernetes30872(t *testing.T) {
	clusterQueue := NewDeltaFIFO()
	fi := NewFederatedInformer(clusterQueue)
	fi.Start()

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		clusterQueue.Replace([]interface{}{&Cluster{Name: "us-east"}, &Cluster{Name: "eu-west"}})
	}()
	go func() {
		defer wg.Done()
		for !fi.ClustersSynced() {
		}
	}()
	wg.Wait()
	fi.Stop()
}
