package runner

import (
	"strings"
	"testing"

	"github.com/confirm-go/confirm/confirm/instrument"
	"github.com/confirm-go/confirm/confirm/rt"
)

func TestToken(t *testing.T) {
	for _, tok := range []Token{
		{Test: "TestTransfer", Accesses: true, Runtime: "v1.DFRlc3RUcmFuc2Zlcg"},
		{Test: "TestX", Runtime: "v1s.AbC_-"},
		{Test: "TestY", Accesses: true, MaxSteps: 500, Runtime: "v1.AA"},
	} {
		got, err := ParseToken(tok.String())
		if err != nil || got != tok {
			t.Errorf("ParseToken(%q) = %+v, %v; want %+v", tok.String(), got, err, tok)
		}
	}
	for _, bad := range []string{
		"",
		"v1.DFRlc3RUcmFuc2Zlcg",
		"c1.TestX.races.",
		"c1.TestX.fast.v1.AA",
		"c1.Test-X.races.v1.AA",
		"c1.Benchmark.races.v1.AA",
		"c1.TestX.races-s.v1.AA",
		"c1.TestX.races-s0.v1.AA",
		"c1.TestX.races-sx.v1.AA",
	} {
		if _, err := ParseToken(bad); err == nil {
			t.Errorf("ParseToken(%q) succeeded", bad)
		}
	}
}

func TestFailureMessages(t *testing.T) {
	out := `--- FAIL: TestTransfer (0.03s)
    --- FAIL: TestTransfer/confirm#0 (0.00s)
        bank_test.go:20: first
    --- FAIL: TestTransfer/confirm#7 (0.00s)
        bank_test.go:20: balance = 90, want 100
        bank_test.go:21: total = 190
            continued
FAIL
`
	want := "bank_test.go:20: balance = 90, want 100\nbank_test.go:21: total = 190\ncontinued"
	if got := failureMessages(out, "TestTransfer"); got != want {
		t.Errorf("failureMessages = %q, want %q", got, want)
	}
	if got := failureMessages(out, "TestOther"); got != "" {
		t.Errorf("failureMessages of another test = %q", got)
	}
}

func TestWithoutFrames(t *testing.T) {
	stack := strings.Join([]string{
		"goroutine 17 [chan receive]:",
		"example.com/m/confirmrt_ab.(*exec).point(0x1)",
		"\t/m/confirmrt_ab/sched.go:291 +0x16c",
		"example.com/m/abba.Transfer(0x1)",
		"\t/m/abba/abba.go:28 +0x65",
		"created by example.com/m/confirmrt_ab.(*exec).newGLocked in goroutine 8",
		"\t/m/confirmrt_ab/sched.go:175 +0x4f0",
	}, "\n")
	want := "goroutine 17 [chan receive]:\nexample.com/m/abba.Transfer(0x1)\n\t/m/abba/abba.go:28 +0x65"
	if got := withoutFrames(stack, "example.com/m/confirmrt_ab"); got != want {
		t.Errorf("withoutFrames =\n%s\nwant\n%s", got, want)
	}
}

// TestUserNames: failures name the test bodies as the user wrote them and
// do not list the injected runtime's files (testify's Error Trace does).
func TestUserNames(t *testing.T) {
	b := &Binary{instr: &instrument.Result{RuntimePath: "example.com/m/confirmrt_ab"}}
	f := b.failure(&rt.Failure{
		Message: "Error Trace:\t/m/abba/abba_test.go:20\n\t\t\t\t/m/confirmrt_ab/subtest.go:80\nError: not equal",
		Stack:   "goroutine 5 [running]:\nexample.com/m/abba.confirmTestTransfer.func1()\n\t/m/abba/abba_test.go:16 +0x1",
	})
	if want := "Error Trace:\t/m/abba/abba_test.go:20\nError: not equal"; f.Message != want {
		t.Errorf("message %q, want %q", f.Message, want)
	}
	if want := "example.com/m/abba.TestTransfer.func1()"; !strings.Contains(f.Stack, want) || strings.Contains(f.Stack, "confirmTest") {
		t.Errorf("stack names the renamed body:\n%s", f.Stack)
	}
}

// TestNameAt: an access step is named by its object, not by its
// location's label with the verb ("write (*recv.State).v", never "write
// writes (*recv.State).v").
func TestNameAt(t *testing.T) {
	b := &Binary{Locations: []rt.Location{
		{File: "/m/recv/recv.go", Line: 5, Kind: "write", Label: "writes (*recv.State).v"},
		{File: "/m/recv/recv.go", Line: 6, Kind: "read", Label: "reads (*recv.State).v"},
	}}
	for loc, op := range []string{"write", "read"} {
		if got := b.nameAt(rt.Event{Op: op, Loc: loc}); got != "(*recv.State).v" {
			t.Errorf("nameAt(%s) = %q, want (*recv.State).v", op, got)
		}
	}
}

func TestGoEnv(t *testing.T) {
	got := goEnv([]string{"HOME=/h", "GOFLAGS=-mod=mod -cover -covermode=atomic -coverpkg=./... -tags=x"})
	want := []string{"HOME=/h", "GOFLAGS=-mod=mod -tags=x"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("goEnv = %q, want %q", got, want)
	}
}

// TestTailBuffer: the buffer keeps the whole lines of its first quarter
// and the last whole lines that fit the rest.
func TestTailBuffer(t *testing.T) {
	tests := []struct {
		max  int
		want string
	}{
		{16, "...\nline five\n"},
		{40, "line one\n...\nline four\nline five\n"},
		{100, "line one\nline two\nline three\nline four\nline five\n"},
	}
	for _, tt := range tests {
		b := newTailBuffer(tt.max)
		for _, s := range []string{"line one\n", "line two\n", "line three\n", "line four\n", "line five\n"} {
			if _, err := b.Write([]byte(s)); err != nil {
				t.Fatal(err)
			}
		}
		if got := b.String(); got != tt.want {
			t.Errorf("max %d: %q, want %q", tt.max, got, tt.want)
		}
	}
}

func TestRunUnknownTest(t *testing.T) {
	b := &Binary{Path: "/nonexistent/pkg.test", Package: "example.com/p", Tests: []string{"TestA"}}
	_, err := b.Run(t.Context(), "TestB", RunOptions{})
	if err == nil || !strings.Contains(err.Error(), "has no test TestB") {
		t.Errorf("Run of an unknown test: %v", err)
	}
}

func TestUserGoroutines(t *testing.T) {
	dump := strings.Join([]string{
		"panic: test timed out after 2s",
		"",
		"goroutine 1 [chan receive]:",
		"testing.(*T).Run(0x1)",
		"\t/usr/local/go/src/testing/testing.go:2109 +0x4e5",
		"",
		"goroutine 8 [sync.Mutex.Lock]:",
		"example.com/m/lockbox.(*Box).set(0x1)",
		"\t/m/lockbox/lockbox.go:22 +0x49",
		"example.com/m/confirmrt_ab.(*exec).run(0x1)",
		"\t/m/confirmrt_ab/sched.go:190 +0xb0",
		"",
		"goroutine 9 [select]:",
		"example.com/m/confirmrt_ab.(*exec).monitor(0x1)",
		"\t/m/confirmrt_ab/sched.go:300 +0xb0",
	}, "\n")
	want := "goroutine 8 [sync.Mutex.Lock]:\nexample.com/m/lockbox.(*Box).set(0x1)\n\t/m/lockbox/lockbox.go:22 +0x49"
	if got := userGoroutines(dump, "example.com/m/confirmrt_ab", "/elsewhere", "/m"); got != want {
		t.Errorf("userGoroutines =\n%s\nwant\n%s", got, want)
	}
}
