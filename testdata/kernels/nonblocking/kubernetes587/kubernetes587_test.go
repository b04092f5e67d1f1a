package kubernetes587

import (
	"sync"
	"testing"
)

type APIContainers struct {
	ID    string
	Names []string
}

type Container struct {
	ID    string
	Name  string
	State struct{ Running bool }
}

type ListContainersOptions struct {
	All bool
}

type DockerInterface interface {
	ListContainers(options ListContainersOptions) ([]APIContainers, error)
	InspectContainer(id string) (*Container, error)
}

type FakeDockerClient struct {
	containerList []APIContainers
	container     *Container
	err           error
	called        []string
}

func (f *FakeDockerClient) ListContainers(options ListContainersOptions) ([]APIContainers, error) {
	f.called = append(f.called, "list") // race
	return f.containerList, f.err
}

func (f *FakeDockerClient) InspectContainer(id string) (*Container, error) {
	f.called = append(f.called, "inspect") // race
	return f.container, f.err
}

type Pod struct {
	ID          string
	ContainerID string
}

type podWorkers struct {
	lock    sync.Mutex
	workers map[string]bool
	wg      sync.WaitGroup
}

func newPodWorkers() *podWorkers {
	return &podWorkers{workers: make(map[string]bool)}
}

func (p *podWorkers) Run(podID string, action func()) {
	p.lock.Lock()
	defer p.lock.Unlock()
	if p.workers[podID] {
		return
	}
	p.workers[podID] = true
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		action()
		p.lock.Lock()
		delete(p.workers, podID)
		p.lock.Unlock()
	}()
}

type Kubelet struct {
	dockerClient DockerInterface
	podWorkers   *podWorkers
}

func (kl *Kubelet) syncPod(pod Pod) error {
	c, err := kl.dockerClient.InspectContainer(pod.ContainerID)
	if err != nil {
		return err
	}
	if c != nil && !c.State.Running {
		return nil
	}
	return nil
}

func (kl *Kubelet) SyncPods(pods []Pod) error {
	desired := make(map[string]bool)
	for _, pod := range pods {
		desired[pod.ContainerID] = true
		kl.podWorkers.Run(pod.ID, func() {
			kl.syncPod(pod)
		})
	}
	existing, err := kl.dockerClient.ListContainers(ListContainersOptions{All: true})
	if err != nil {
		return err
	}
	for _, c := range existing {
		if !desired[c.ID] {
			_ = c.Names
		}
	}
	return nil
}

func TestSyncPodsDoesNothing(t *testing.T) {
	fakeDocker := &FakeDockerClient{
		containerList: []APIContainers{{ID: "1234", Names: []string{"/k8s--foo--bar"}}},
		container:     &Container{ID: "1234"},
	}
	kl := &Kubelet{dockerClient: fakeDocker, podWorkers: newPodWorkers()}
	err := kl.SyncPods([]Pod{{ID: "foo", ContainerID: "1234"}, {ID: "bar", ContainerID: "5678"}})
	if err != nil {
		t.Errorf("unexpected error: %v", err)
	}
	kl.podWorkers.wg.Wait()
	if len(fakeDocker.called) != 3 {
		t.Errorf("unexpected calls: %v", fakeDocker.called)
	}
}
