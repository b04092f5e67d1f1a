package moby36114

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

type MappedVirtualDisk struct {
	HostPath          string
	ContainerPath     string
	CreateInUtilityVM bool
}

type UtilityVM struct {
	mu       sync.Mutex
	stopped  bool
	attached map[string]string
}

func (uvm *UtilityVM) HotAddVhd(hostPath, containerPath string) error {
	uvm.mu.Lock()
	defer uvm.mu.Unlock()
	if uvm.stopped {
		return fmt.Errorf("hot add %s: utility VM is not running", hostPath)
	}
	uvm.attached[hostPath] = containerPath
	return nil
}

func (uvm *UtilityVM) HotRemoveVhd(hostPath string) error {
	uvm.mu.Lock()
	defer uvm.mu.Unlock()
	if _, ok := uvm.attached[hostPath]; !ok {
		return errors.New("not attached")
	}
	delete(uvm.attached, hostPath)
	return nil
}

func (uvm *UtilityVM) Terminate() {
	uvm.mu.Lock()
	uvm.stopped = true
	uvm.mu.Unlock()
}

type serviceVMConfig struct {
	Uvm *UtilityVM
}

type serviceVM struct {
	sync.Mutex
	config       *serviceVMConfig
	attachedVHDs map[string]int
}

func (svm *serviceVM) hotAddVHDs(mvds ...MappedVirtualDisk) error {
	svm.Lock() // deadlock
	defer svm.Unlock()
	for i, mvd := range mvds {
		if _, ok := svm.attachedVHDs[mvd.HostPath]; ok {
			svm.attachedVHDs[mvd.HostPath]++
			continue
		}
		if err := svm.config.Uvm.HotAddVhd(mvd.HostPath, mvd.ContainerPath); err != nil {
			svm.hotRemoveVHDs(mvds[:i]...)
			return err
		}
		svm.attachedVHDs[mvd.HostPath] = 1
	}
	return nil
}

func (svm *serviceVM) hotRemoveVHDs(mvds ...MappedVirtualDisk) error {
	svm.Lock() // deadlock
	defer svm.Unlock()
	var retErr error
	for _, mvd := range mvds {
		if _, ok := svm.attachedVHDs[mvd.HostPath]; !ok {
			continue
		}
		if svm.attachedVHDs[mvd.HostPath] > 1 {
			svm.attachedVHDs[mvd.HostPath]--
			continue
		}
		if err := svm.config.Uvm.HotRemoveVhd(mvd.HostPath); err != nil && retErr == nil {
			retErr = err
		}
		delete(svm.attachedVHDs, mvd.HostPath)
	}
	return retErr
}

type Driver struct {
	svm *serviceVM
}

func (d *Driver) Get(id string) error {
	layer := MappedVirtualDisk{
		HostPath:      "C:\\lcow\\" + id + "\\sandbox.vhdx",
		ContainerPath: "/tmp/" + id,
	}
	scratch := MappedVirtualDisk{
		HostPath:      "C:\\lcow\\" + id + "\\scratch.vhdx",
		ContainerPath: "/tmp/" + id + "-scratch",
	}
	return d.svm.hotAddVHDs(layer, scratch)
}

func (d *Driver) Put(id string) error {
	return d.svm.hotRemoveVHDs(MappedVirtualDisk{HostPath: "C:\\lcow\\" + id + "\\sandbox.vhdx"})
}

func TestMoby36114(t *testing.T) {
	uvm := &UtilityVM{attached: make(map[string]string)}
	d := &Driver{
		svm: &serviceVM{
			config:       &serviceVMConfig{Uvm: uvm},
			attachedVHDs: make(map[string]int),
		},
	}

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := d.Get("layer1"); err == nil {
			d.Put("layer1")
		}
	}()
	go func() {
		defer wg.Done()
		uvm.Terminate()
	}()
	wg.Wait()
}
