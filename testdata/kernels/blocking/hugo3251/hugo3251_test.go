package hugo3251

import (
	"fmt"
	"sync"
	"testing"
)

type remoteLock struct {
	sync.RWMutex
	m map[string]*sync.Mutex
}

func (l *remoteLock) URLLock(url string) {
	l.Lock() // deadlock
	if _, ok := l.m[url]; !ok {
		l.m[url] = &sync.Mutex{}
	}
	l.m[url].Lock() // deadlock
	l.Unlock()
}

func (l *remoteLock) URLUnlock(url string) {
	l.RLock() // deadlock
	defer l.RUnlock()
	if um, ok := l.m[url]; ok {
		um.Unlock()
	}
}

var resRemoteLock = remoteLock{m: make(map[string]*sync.Mutex)}

type Fs struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (fs *Fs) ReadFile(name string) ([]byte, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	c, ok := fs.files[name]
	return c, ok
}

func (fs *Fs) WriteFile(name string, c []byte) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.files[name] = c
}

type httpClient struct {
	responses map[string][]byte
}

func (hc *httpClient) Get(url string) ([]byte, error) {
	if c, ok := hc.responses[url]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("GET %s: 404 Not Found", url)
}

func getCacheFileID(id string) string {
	return "cache/" + id
}

func resGetCache(id string, fs *Fs, ignoreCache bool) ([]byte, bool) {
	if ignoreCache {
		return nil, false
	}
	return fs.ReadFile(getCacheFileID(id))
}

func resWriteCache(id string, c []byte, fs *Fs, ignoreCache bool) {
	if ignoreCache {
		return
	}
	fs.WriteFile(getCacheFileID(id), c)
}

func resGetRemote(url string, fs *Fs, hc *httpClient) ([]byte, error) {
	if c, ok := resGetCache(url, fs, false); ok {
		return c, nil
	}

	resRemoteLock.URLLock(url)
	defer func() { resRemoteLock.URLUnlock(url) }()

	if c, ok := resGetCache(url, fs, false); ok {
		return c, nil
	}

	c, err := hc.Get(url)
	if err != nil {
		return nil, err
	}
	resWriteCache(url, c, fs, false)
	return c, nil
}

func TestHugo3251(t *testing.T) {
	fs := &Fs{files: make(map[string][]byte)}
	hc := &httpClient{responses: map[string][]byte{
		"http://example.org/data.json": []byte(`{"a": 1}`),
	}}

	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resGetRemote("http://example.org/data.json", fs, hc)
		}()
	}
	wg.Wait()
}
