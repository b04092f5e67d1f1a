package cockroach9935

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"
)

type Severity int32

const (
	InfoLog Severity = iota
	WarningLog
	ErrorLog
)

type flushSyncWriter interface {
	Flush() error
	Sync() error
	Write(p []byte) (int, error)
}

type fileSink struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	nbytes uint64
	limit  uint64
}

func (f *fileSink) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.nbytes+uint64(len(p)) > f.limit {
		return 0, errors.New("no space left on device")
	}
	f.nbytes += uint64(len(p))
	return f.buf.Write(p)
}

func (f *fileSink) Flush() error { return nil }
func (f *fileSink) Sync() error  { return nil }

func (f *fileSink) shrink(limit uint64) {
	f.mu.Lock()
	f.limit = limit
	f.mu.Unlock()
}

type loggingT struct {
	mu       sync.Mutex
	file     flushSyncWriter
	exited   bool
	exitCode int
	msgs     int
}

func (l *loggingT) outputLogEntry(s Severity, file string, line int, msg string) {
	l.mu.Lock() // deadlock
	entry := fmt.Sprintf("%d %s:%d %s\n", s, file, line, msg)
	if _, err := l.file.Write([]byte(entry)); err != nil {
		l.exit(err)
	}
	l.msgs++
	l.mu.Unlock()
}

func (l *loggingT) exit(err error) {
	l.mu.Lock() // deadlock
	defer l.mu.Unlock()
	l.flushAll()
	l.exited = true
	l.exitCode = 2
}

func (l *loggingT) flushAll() {
	if l.file != nil {
		l.file.Flush()
		l.file.Sync()
	}
}

func Infof(l *loggingT, format string, args ...interface{}) {
	l.outputLogEntry(InfoLog, "store.go", 42, fmt.Sprintf(format, args...))
}

func TestCockroach9935(t *testing.T) {
	sink := &fileSink{limit: 1 << 20}
	l := &loggingT{file: sink}

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 10; i++ {
			Infof(l, "processed range r%d", i)
		}
	}()
	go func() {
		defer wg.Done()
		sink.shrink(64)
	}()
	wg.Wait()
}
