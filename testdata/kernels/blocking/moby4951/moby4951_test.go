package moby4951

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

type DevInfo struct {
	Hash       string
	DeviceID   int
	Size       uint64
	mountCount int
	mountPath  string
	lock       sync.Mutex
	devices    *DeviceSet
}

func (info *DevInfo) Name() string {
	return fmt.Sprintf("docker-thinpool-%s", info.Hash)
}

type DeviceSet struct {
	sync.Mutex
	devicesLock      sync.Mutex
	Devices          map[string]*DevInfo
	activeDevices    map[string]bool
	nrDeletedDevices int
}

func NewDeviceSet() *DeviceSet {
	return &DeviceSet{
		Devices:       make(map[string]*DevInfo),
		activeDevices: make(map[string]bool),
	}
}

func (devices *DeviceSet) lookupDevice(hash string) (*DevInfo, error) {
	devices.devicesLock.Lock()
	defer devices.devicesLock.Unlock()
	info := devices.Devices[hash]
	if info == nil {
		return nil, fmt.Errorf("unknown device %s", hash)
	}
	return info, nil
}

func (devices *DeviceSet) AddDevice(hash string, id int) *DevInfo {
	info := &DevInfo{Hash: hash, DeviceID: id, Size: 10 << 30, devices: devices}
	devices.devicesLock.Lock()
	devices.Devices[hash] = info
	devices.devicesLock.Unlock()
	return info
}

func (devices *DeviceSet) activateDeviceIfNeeded(info *DevInfo) error {
	if devices.activeDevices[info.Name()] {
		return nil
	}
	devices.activeDevices[info.Name()] = true
	return nil
}

func (devices *DeviceSet) deactivateDevice(info *DevInfo) error {
	delete(devices.activeDevices, info.Name())
	return nil
}

func (devices *DeviceSet) deleteDevice(info *DevInfo) error {
	if err := devices.deactivateDevice(info); err != nil {
		return err
	}
	devices.devicesLock.Lock()
	delete(devices.Devices, info.Hash)
	devices.devicesLock.Unlock()
	devices.nrDeletedDevices++
	return nil
}

func (devices *DeviceSet) DeleteDevice(hash string) error {
	info, err := devices.lookupDevice(hash)
	if err != nil {
		return err
	}

	info.lock.Lock() // deadlock
	defer info.lock.Unlock()

	if info.mountCount != 0 {
		return errors.New("device is busy")
	}

	devices.Lock() // deadlock
	defer devices.Unlock()

	return devices.deleteDevice(info)
}

func (devices *DeviceSet) MountDevice(hash, path string) error {
	info, err := devices.lookupDevice(hash)
	if err != nil {
		return err
	}

	devices.Lock() // deadlock
	defer devices.Unlock()

	info.lock.Lock() // deadlock
	defer info.lock.Unlock()

	if info.mountCount > 0 {
		if path != info.mountPath {
			return fmt.Errorf("trying to mount %s on %s, already mounted on %s", hash, path, info.mountPath)
		}
		info.mountCount++
		return nil
	}
	if err := devices.activateDeviceIfNeeded(info); err != nil {
		return err
	}
	info.mountCount = 1
	info.mountPath = path
	return nil
}

func TestMoby4951(t *testing.T) {
	devices := NewDeviceSet()
	devices.AddDevice("7a3b9c", 1)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		devices.MountDevice("7a3b9c", "/var/lib/docker/devicemapper/mnt/7a3b9c")
	}()
	go func() {
		defer wg.Done()
		devices.DeleteDevice("7a3b9c")
	}()
	wg.Wait()
}
