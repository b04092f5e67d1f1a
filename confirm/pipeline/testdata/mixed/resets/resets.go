// Package resets keeps a log whose reset is checked against a zero value.
// The analyzer flags NewLog's unlocked write of lines (Add writes it under
// the mutex); the test fails whatever the schedule, so its failure must not
// confirm the warning.
package resets

import "sync"

// A Log collects lines.
type Log struct {
	mu    sync.Mutex
	lines []string
}

// free holds logs for reuse.
var free = make(chan *Log, 4)

// NewLog returns a log with one line, reusing a freed one when it can.
func NewLog(first string) *Log {
	var l *Log
	select {
	case l = <-free:
	default:
		l = new(Log)
	}
	l.lines = []string{first}
	return l
}

// Free makes l reusable.
func (l *Log) Free() {
	l.mu.Lock()
	l.lines = nil
	l.mu.Unlock()
	select {
	case free <- l:
	default:
	}
}

// Add appends a line.
func (l *Log) Add(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

// Len returns the number of lines.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.lines)
}
