package leaks

import (
	"errors"
	"sync"
)

var errOffset = errors.New("offset out of range")

// A logFile is read-locked by the helper that finds it, on success, and
// released by whoever calls the callback Read returns, the file lock's
// RUnlock method value (badger's getFileRLocked and getUnlockCallback).
// Silent.
type logFile struct {
	lock sync.RWMutex
	data []byte
}

type valueLog struct {
	mu    sync.RWMutex
	files map[int]*logFile
}

func (v *valueLog) fileRLocked(fid, off int) (*logFile, error) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	f, ok := v.files[fid]
	if !ok || off >= len(f.data) {
		return nil, errOffset
	}
	f.lock.RLock()
	return f, nil
}

func unlockCallback(f *logFile) func() {
	if f == nil {
		return nil
	}
	return f.lock.RUnlock
}

func (v *valueLog) Read(fid, off int) (byte, func(), error) {
	f, err := v.fileRLocked(fid, off)
	cb := unlockCallback(f)
	if err != nil {
		return 0, cb, err
	}
	return f.data[off], cb, nil
}

// A segment's helper read-locks it the same way, but nothing ever
// releases a segment's lock: reported.
type segment struct {
	lock sync.RWMutex
	data []byte
}

type segmentLog struct {
	mu       sync.RWMutex
	segments map[int]*segment
}

func (s *segmentLog) segmentRLocked(id, off int) (*segment, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	g, ok := s.segments[id]
	if !ok || off >= len(g.data) {
		return nil, errOffset
	}
	g.lock.RLock() // want `lock leak: \(\*leaks.segmentLog\).segmentRLocked returns with \(leaks.segment\).lock still held`
	return g, nil
}

func (s *segmentLog) Read(id, off int) (byte, error) {
	g, err := s.segmentRLocked(id, off)
	if err != nil {
		return 0, err
	}
	return g.data[off], nil
}
