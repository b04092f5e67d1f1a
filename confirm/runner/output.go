package runner

import (
	"bytes"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// maxOutput bounds the output kept of a test process.
const maxOutput = 256 << 10

// A tailBuffer keeps the first and the last bytes written to it, max in
// all: the head holds what a test printed first (the failures of a
// search's serial executions), the tail how it ended.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	head    []byte
	buf     []byte // the tail
	dropped bool
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	if room := b.max/4 - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - (b.max - b.max/4); over > 0 {
		// Keep whole lines.
		cut := over
		if i := strings.IndexByte(string(b.buf[over:]), '\n'); i >= 0 && i < b.max/2 {
			cut = over + i + 1
		}
		b.buf = append(b.buf[:0], b.buf[cut:]...)
		b.dropped = true
	}
	return n, nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.dropped {
		return string(b.head) + string(b.buf)
	}
	head := b.head[:bytes.LastIndexByte(b.head, '\n')+1] // whole lines
	return string(head) + "...\n" + string(b.buf)
}

// failHeader matches the line testing prints for a failed subtest of
// test's controlled executions, e.g. "    --- FAIL: TestX/confirm#3 (0.00s)".
var failHeader = regexp.MustCompile(`^(\s*)--- FAIL: (\S+)/confirm#(\d+)\S* \(`)

// failureMessages returns the messages testing printed for the last failed
// controlled execution of test (e.g. "bank_test.go:20: total = 90, want
// 100"), one per line, or "".
func failureMessages(out, test string) string { return executionMessages(out, test, -1) }

// executionMessages returns the messages testing printed for the failed
// controlled execution n of test (the last one when n < 0).
func executionMessages(out, test string, n int) string {
	lines := strings.Split(out, "\n")
	var msgs []string
	for i, line := range lines {
		m := failHeader.FindStringSubmatch(line)
		if m == nil || m[2] != test || n >= 0 && m[3] != strconv.Itoa(n) {
			continue
		}
		msgs = msgs[:0]
		indent := len(m[1])
		for _, l := range lines[i+1:] {
			if strings.TrimSpace(l) == "" || leadingSpace(l) <= indent {
				break
			}
			if strings.HasPrefix(strings.TrimSpace(l), "--- ") {
				continue // a nested subtest's header
			}
			msgs = append(msgs, strings.TrimSpace(l))
		}
	}
	return strings.Join(msgs, "\n")
}

func leadingSpace(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t"))
}

// crashLine returns the line of out that says why a process died
// ("fatal error: ...", "panic: ...", "exit status ..."), or "".
func crashLine(out string) string {
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		for _, prefix := range []string{"fatal error: ", "panic: ", "runtime: "} {
			if strings.HasPrefix(line, prefix) {
				return line
			}
		}
	}
	return ""
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// withoutFrames removes from a goroutine dump the frames of functions in
// package pkg (the injected runtime), with their file lines, and the
// "created by" lines naming it, so that a stack shows the user's code.
func withoutFrames(stack, pkg string) string {
	if pkg == "" || stack == "" {
		return stack
	}
	lines := strings.Split(stack, "\n")
	out := lines[:0]
	for i := 0; i < len(lines); i++ {
		fn := strings.TrimPrefix(lines[i], "created by ")
		if strings.HasPrefix(fn, pkg+".") {
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
				i++
			}
			continue
		}
		out = append(out, lines[i])
	}
	return strings.Join(out, "\n")
}

// withoutRuntimeLines drops from a failure message the lines that name a
// file of the injected runtime package pkg (an assertion library's
// "Error Trace:" lists the callers of the failed assertion, and the
// runtime that runs the test body is one of them), and names the renamed
// test bodies as the user wrote them.
func withoutRuntimeLines(msg, pkg string) string {
	if pkg == "" || msg == "" {
		return msg
	}
	dir := "/" + path.Base(pkg) + "/"
	lines := strings.Split(msg, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.Contains(l, dir) {
			out = append(out, l)
		}
	}
	return userFunc(strings.Join(out, "\n"))
}

// userGoroutines returns the goroutines of a goroutine dump (as a test
// binary prints it when -test.timeout fires) that run code below one of
// dirs, with the frames of package pkg (the injected runtime) removed.
func userGoroutines(dump, pkg string, dirs ...string) string {
	var keep []string
	for _, block := range strings.Split(dump, "\n\n") {
		block = strings.TrimSpace(block)
		if !strings.HasPrefix(block, "goroutine ") {
			continue
		}
		block = withoutFrames(block, pkg)
		for _, dir := range dirs {
			if strings.Contains(block, "\t"+dir+string(filepath.Separator)) {
				keep = append(keep, block)
				break
			}
		}
	}
	return strings.Join(keep, "\n\n")
}
