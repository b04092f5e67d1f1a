package syncthing7322

import (
	"sync"
	"testing"
)

type DeviceID string

type FolderConfiguration struct {
	ID      string
	Label   string
	Devices []DeviceID
	Paused  bool
}

type ClusterConfig struct {
	Folders []FolderConfiguration
}

type Connection interface {
	ID() DeviceID
	ClusterConfig(ClusterConfig)
	Close(reason string)
}

type fakeConnection struct {
	id     DeviceID
	mu     sync.Mutex
	cc     []ClusterConfig
	closed bool
}

func (c *fakeConnection) ID() DeviceID { return c.id }

func (c *fakeConnection) ClusterConfig(cc ClusterConfig) {
	c.mu.Lock()
	c.cc = append(c.cc, cc)
	c.mu.Unlock()
}

func (c *fakeConnection) Close(reason string) {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
}

type folderRunner interface {
	Stop()
}

type sendReceiveFolder struct {
	stop chan struct{}
}

func (f *sendReceiveFolder) Stop() { close(f.stop) }

type model struct {
	fmut          sync.RWMutex
	folderCfgs    map[string]FolderConfiguration
	folderRunners map[string]folderRunner
	folderDevices map[string][]DeviceID
	deviceFolders map[DeviceID][]string

	pmut            sync.RWMutex
	conn            map[DeviceID]Connection
	helloMessages   map[DeviceID]string
	deviceDownloads map[DeviceID]int
}

func NewModel() *model {
	return &model{
		folderCfgs:      make(map[string]FolderConfiguration),
		folderRunners:   make(map[string]folderRunner),
		folderDevices:   make(map[string][]DeviceID),
		deviceFolders:   make(map[DeviceID][]string),
		conn:            make(map[DeviceID]Connection),
		helloMessages:   make(map[DeviceID]string),
		deviceDownloads: make(map[DeviceID]int),
	}
}

func (m *model) AddFolder(cfg FolderConfiguration) {
	m.fmut.Lock()
	defer m.fmut.Unlock()
	m.folderCfgs[cfg.ID] = cfg
	m.folderRunners[cfg.ID] = &sendReceiveFolder{stop: make(chan struct{})}
	for _, dev := range cfg.Devices {
		m.folderDevices[cfg.ID] = append(m.folderDevices[cfg.ID], dev)
		m.deviceFolders[dev] = append(m.deviceFolders[dev], cfg.ID)
	}
}

func (m *model) generateClusterConfig(device DeviceID) ClusterConfig {
	var message ClusterConfig
	m.fmut.RLock() // deadlock
	defer m.fmut.RUnlock()
	for _, folder := range m.deviceFolders[device] {
		message.Folders = append(message.Folders, m.folderCfgs[folder])
	}
	return message
}

func (m *model) AddConnection(conn Connection, hello string) {
	deviceID := conn.ID()

	m.pmut.Lock() // deadlock
	if oldConn, ok := m.conn[deviceID]; ok {
		oldConn.Close("replacing old connection")
	}
	m.conn[deviceID] = conn
	m.deviceDownloads[deviceID] = 0
	m.helloMessages[deviceID] = hello

	cm := m.generateClusterConfig(deviceID)
	conn.ClusterConfig(cm)
	m.pmut.Unlock()
}

func (m *model) RemoveFolder(cfg FolderConfiguration) {
	m.fmut.Lock() // deadlock
	defer m.fmut.Unlock()

	runner, ok := m.folderRunners[cfg.ID]
	if !ok {
		return
	}
	runner.Stop()

	m.pmut.Lock() // deadlock
	for _, dev := range m.folderDevices[cfg.ID] {
		if conn, ok := m.conn[dev]; ok {
			conn.Close("folder removed")
		}
	}
	m.pmut.Unlock()

	m.removeFolderLocked(cfg)
}

func (m *model) removeFolderLocked(cfg FolderConfiguration) {
	for _, dev := range m.folderDevices[cfg.ID] {
		folders := m.deviceFolders[dev][:0]
		for _, f := range m.deviceFolders[dev] {
			if f != cfg.ID {
				folders = append(folders, f)
			}
		}
		m.deviceFolders[dev] = folders
	}
	delete(m.folderCfgs, cfg.ID)
	delete(m.folderRunners, cfg.ID)
	delete(m.folderDevices, cfg.ID)
}

func TestSyncthing7322(t *testing.T) {
	m := NewModel()
	device := DeviceID("AIR6LPZ-7K4PTTV")
	cfg := FolderConfiguration{ID: "default", Label: "Default Folder", Devices: []DeviceID{device}}
	m.AddFolder(cfg)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.AddConnection(&fakeConnection{id: device}, "syncthing v1.2.0")
	}()
	go func() {
		defer wg.Done()
		m.RemoveFolder(cfg)
	}()
	wg.Wait()
}
