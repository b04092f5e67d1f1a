package instrument

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeModule writes a module example.com/m with the given files into a
// temporary directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.22\n"
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// rewrittenFile returns the instrumented text of file name.
func rewrittenFile(t *testing.T, res *Result, name string) string {
	t.Helper()
	data, err := os.ReadFile(res.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "/"+name+"\": ") {
			_, tmp, _ := strings.Cut(l, ": ")
			tmp = strings.Trim(strings.TrimSpace(tmp), "\",")
			src, err := os.ReadFile(tmp)
			if err != nil {
				t.Fatal(err)
			}
			return string(src)
		}
	}
	t.Fatalf("%s not in overlay:\n%s", name, data)
	return ""
}

// TestRewrites instruments small packages, which Instrument type-checks
// against the runtime, and checks the lowering of each construct.
func TestRewrites(t *testing.T) {
	tests := []struct {
		name string
		src  string   // the body of package p after "package p\n"
		want []string // substrings of the rewritten p.go
		not  []string // must not appear
		note string   // substring of a note
	}{
		{
			name: "labelled select",
			src: `func f(a chan int) int {
L:
	select {
	case v := <-a:
		if v > 0 {
			break L
		}
		return v
	}
	return 1
}`,
			want: []string{"L:\n\tswitch confirm_k1 := confirmrt.NewRecvSlot(", "default: v := confirm_k1.V;"},
		},
		{
			name: "select without default ends a function",
			src: `func f(a, b chan int) int {
	select {
	case v := <-a:
		return v
	case b <- 1:
		return 0
	}
}`,
			want: []string{"confirmrt.Select(false, confirm_k1.Case(), confirm_k2)", "case 0:", "default:", "confirmrt.SendCase("},
		},
		{
			name: "empty selects",
			src: `func f() { select { default: } }
func g() int { select {} }`,
			want: []string{"switch confirmrt.Select(true) { default: }", "for { confirmrt.Select(false) }"},
		},
		{
			name: "go with variadic, multi-value and generic args",
			src: `func f(xs ...int) {}
func g() (int, int) { return 1, 2 }
func h(a, b int) {}
func k[T any](a, b T) {}
func m(xs []int) {
	go f(xs...)
	go h(g())
	go k(xs[0], 2)
	go k[int](1, 2)
	go println(xs)
	go copy(xs, xs)
}`,
			want: []string{
				"confirmrt.Go(func() { f(confirm_a1...) })",
				"confirm_a2, confirm_a3 := /*line",
				"confirmrt.Go(func() { k(confirm_a4, 2) })",
				"confirmrt.Go(func() { k[int](1, 2) })",
				"confirmrt.Go(func() { println(confirm_a5) })",
			},
		},
		{
			name: "go and select with multi-line operands",
			src: `type T struct{ a, b int }
func h(t T, n int) {}
func f(c chan T) {
	go h(T{
		a: 1,
	}, 2)
	select {
	case c <- T{
		b: 2,
	}:
	}
}`,
			want: []string{"confirm_a1 := /*line ", "T { a : 1 , }", "h(\n\nconfirm_a1, 2) }) }", "confirmrt.SendCase(", "T { b : 2 , }"},
		},
		{
			name: "select inside a select operand",
			src: `func f(a, b chan int) int {
	select {
	case a <- func() int {
		go close(b)
		select {
		case v := <-b:
			return v
		default:
			return 0
		}
	}():
		return 1
	}
}`,
			want: []string{"confirmrt . Close ( confirm_a2 )", "switch confirm_k3 := confirmrt . NewRecvSlot ( b ) ; confirmrt . Select ( true , confirm_k3 . Case ( ) ) { case 0 : v := confirm_k3 . V ; return v ;"},
		},
		{
			name: "go with method value and method expression",
			src: `type T struct{}
func (T) M(int) {}
func (*T) P() {}
func f(t T, p *T, fn func()) {
	go t.M(1)
	go T.M(t, 2)
	go p.P()
	go fn()
	go func() {}()
}`,
			want: []string{"confirm_f1 := t.M;", "confirmrt.Go(func() { T.M(confirm_a2, 2) })", "confirmrt.Go(p.P)", "confirmrt.Go(fn)", "confirmrt.Go(func() {})"},
		},
		{
			name: "imports: dot, renamed, kept",
			src: `import (
	. "sync"
	s2 "sync/atomic"
	"time"
)
var mu Mutex
var n s2.Int32
var m Map
var d = time.Second
func f() { time.Sleep(d); <-time.After(d) }`,
			want: []string{"var mu confirmrt.Mutex", "var n confirmrt.Int32", `_ "sync/atomic"`, `. "sync"`, "confirmrt.Sleep(d)", "confirmrt.Recv(confirmrt.After(d))"},
		},
		{
			name: "time, contexts and randomness on the virtual clock and the execution's source",
			src: `import ("context"; "math/rand"; r2 "math/rand/v2"; "testing"; "time")
func f(ctx context.Context) time.Duration {
	t := time.NewTimer(time.Second); t.Reset(time.Minute); t.Stop()
	k := time.NewTicker(time.Second); defer k.Stop()
	ctx, cancel := context.WithTimeout(ctx, time.Second); defer cancel()
	_ = rand.Intn(3) + r2.IntN(4) + r2.N[int](5)
	_ = testing.AllocsPerRun(1, func() {})
	return time.Since(time.Now())
}`,
			want: []string{"t := confirmrt.NewTimer(time.Second); confirmrt.TimerReset(t, time.Minute); confirmrt.TimerStop(t)",
				"defer confirmrt.TickerStop(k)", "confirmrt.WithTimeout(ctx, time.Second)", "confirmrt.RandIntn(3) + confirmrt.Rand2IntN(4) + confirmrt.Rand2N[int](5)",
				"confirmrt.AllocsPerRun(1,", "return confirmrt.Since(confirmrt.Now())"},
		},
		{
			name: "calls into uncontrolled code that may synchronize",
			src: `import ("io"; "sync")
type box struct{ m sync.Map; p sync.Pool; l sync.Locker }
func f(b *box, r *io.PipeReader) (any, bool) {
	b.m.Store(1, 2)
	v, ok := b.m.Load(1)
	_ = b.p.Get()
	defer b.m.Delete(1)
	for i := 0; i < 2; b.m.Store(i, i) { i++ }
	_, _ = r.Read(nil)
	b.l.Lock()
	go b.m.Clear()
	_ = v
	return b.m.LoadOrStore(3, ok)
}`,
			want: []string{"b.m.Store(1, 2); confirmrt.ExtDone()", "v, ok := confirmrt.Ext2(b.m.Load(1))", "_ = confirmrt.Ext1(b.p.Get())",
				"defer confirmrt.ExtDone(); defer b.m.Delete(1)", "for i := 0; i < 2; func() { b.m.Store(i, i); confirmrt.ExtDone() }()",
				"_, _ = confirmrt.Ext2(r.Read(nil))", "b.l.Lock(); confirmrt.ExtDone()", "return confirmrt.Ext2(b.m.LoadOrStore(3, ok))"},
			not: []string{"Clear(); confirmrt.ExtDone"},
		},
		{
			name: "sync package fully replaced",
			src: `import "sync"
var mu sync.Mutex
var once sync.Once
func f() { once.Do(func() {}); mu.Lock() }`,
			want: []string{`_ "sync"`, "var once confirmrt.Once"},
		},
		{
			name: "receives in every position",
			src: `func use(int) {}
func f(c chan int, cc chan chan int) int {
	use(<-c)
	var v, ok = <-c
	_, _ = v, ok
	if x, ok := <-c; ok {
		return x
	}
	c <- <-c
	x := <-<-cc
	_ = x
	return <-c
}`,
			want: []string{"use(confirmrt.Recv(c))", "var v, ok = confirmrt.Recv2(c)", "if x, ok := confirmrt.Recv2(c); ok", "confirmrt.Send(c, confirmrt.Recv(c))", "confirmrt.Recv(confirmrt.Recv(cc))", "return confirmrt.Recv(c)"},
		},
		{
			name: "conversions on send",
			src: `type E struct{}
func (*E) Error() string { return "" }
func f(c chan error, d chan<- int) {
	c <- &E{}
	var e *E
	for i := 0; i < 1; c <- e { i++ }
	d <- 1
}`,
			want: []string{"confirmrt.Zero(confirm_ch1)", "confirmrt.Send(c, confirmrt.Conv(c)(e))", "confirmrt.Send(d, 1)"},
		},
		{
			name: "make of channel types",
			src: `type C chan int
func f(n int64) (<-chan int, C, chan<- C, chan int) {
	return make(<-chan int), make(C, 1), make(chan<- C), make(chan int, n)
}`,
			want: []string{"(<-chan int)(confirmrt.MakeChan[int](0))", "confirmrt.MakeChanOf[C](1)", "(chan<- C)(confirmrt.MakeChan[C](0))", "confirmrt.MakeChan[int](int(n))"},
		},
		{
			name: "range forms",
			src: `func f(c chan int) (n int) {
	var x int
	for x = range c {
		n += x
	}
	for range c {
	}
	return n
}`,
			want: []string{"if !confirm_ok2 { break }; x = confirm_v3; {", "_, confirm_ok5 := confirmrt.Recv2(confirm_c4)"},
		},
		{
			name: "subtests",
			src: `import "testing"
func helper(t *testing.T, b *testing.B) {
	t.Run("x", func(t *testing.T) { t.Parallel() })
	b.Run("y", func(*testing.B) {})
	run := t.Run
	_ = run
	t.Cleanup(func() { run("z", nil) })
	_ = t.Context().Done()
}
func tbHelper(tb testing.TB) { tb.Cleanup(func() {}); _ = tb.Context() }`,
			want: []string{"confirmrt.Run(t, \"x\", func(t *testing.T) { confirmrt.Parallel(t) })", "b.Run(\"y\"", "run := t.Run",
				"confirmrt.Cleanup(t, func() { run(\"z\", nil) })", "_ = confirmrt.TestContext(t).Done()",
				"confirmrt.Cleanup(tb, func() {}); _ = confirmrt.TestContext(tb)"},
		},
		{
			name: "exit and fatal",
			src: `import ("log"; "os")
func f() { if len(os.Args) > 5 { log.Fatalf("x") }; os.Exit(2) }`,
			want: []string{"confirmrt.Fatalf(", "confirmrt.Exit(2)", "len(os.Args)"},
		},
		{
			name: "generic atomic pointer and sync types as type arguments",
			src: `import ("sync"; "sync/atomic")
type box[T any] struct{ v T }
var p atomic.Pointer[int]
var b box[sync.Mutex]
func f() { b.v.Lock(); p.Store(nil) }`,
			want: []string{"var p confirmrt.Pointer[int]", "var b box[confirmrt.Mutex]"},
		},
		{
			name: "every replaced name type-checks against the runtime",
			src: `import ("log"; "os"; "runtime"; "sync"; "sync/atomic"; "time"; "unsafe")
type all struct {
	mu sync.Mutex; rw sync.RWMutex; wg sync.WaitGroup; once sync.Once; c *sync.Cond; l sync.Locker
	i32 atomic.Int32; i64 atomic.Int64; u32 atomic.Uint32; u64 atomic.Uint64; up atomic.Uintptr
	b atomic.Bool; v atomic.Value; p atomic.Pointer[int]
}
func f(a *all) {
	a.c = sync.NewCond(&a.mu); a.l = a.rw.RLocker()
	_ = sync.OnceFunc(func() {}); _ = sync.OnceValue(func() int { return 1 }); _ = sync.OnceValues(func() (int, error) { return 1, nil })
	var i32 int32; var i64 int64; var u32 uint32; var u64 uint64; var up uintptr; var p unsafe.Pointer
	atomic.AddInt32(&i32, 1); atomic.AddInt64(&i64, 1); atomic.AddUint32(&u32, 1); atomic.AddUint64(&u64, 1); atomic.AddUintptr(&up, 1)
	atomic.LoadInt32(&i32); atomic.LoadInt64(&i64); atomic.LoadUint32(&u32); atomic.LoadUint64(&u64); atomic.LoadUintptr(&up); atomic.LoadPointer(&p)
	atomic.StoreInt32(&i32, 1); atomic.StoreInt64(&i64, 1); atomic.StoreUint32(&u32, 1); atomic.StoreUint64(&u64, 1); atomic.StoreUintptr(&up, 1); atomic.StorePointer(&p, nil)
	atomic.SwapInt32(&i32, 1); atomic.SwapInt64(&i64, 1); atomic.SwapUint32(&u32, 1); atomic.SwapUint64(&u64, 1); atomic.SwapUintptr(&up, 1); atomic.SwapPointer(&p, nil)
	atomic.CompareAndSwapInt32(&i32, 1, 2); atomic.CompareAndSwapInt64(&i64, 1, 2); atomic.CompareAndSwapUint32(&u32, 1, 2)
	atomic.CompareAndSwapUint64(&u64, 1, 2); atomic.CompareAndSwapUintptr(&up, 1, 2); atomic.CompareAndSwapPointer(&p, nil, nil)
	atomic.AndInt32(&i32, 1); atomic.AndInt64(&i64, 1); atomic.AndUint32(&u32, 1); atomic.AndUint64(&u64, 1); atomic.AndUintptr(&up, 1)
	atomic.OrInt32(&i32, 1); atomic.OrInt64(&i64, 1); atomic.OrUint32(&u32, 1); atomic.OrUint64(&u64, 1); atomic.OrUintptr(&up, 1)
	a.wg.Go(func() {}); a.wg.Wait(); a.once.Do(func() {}); a.i64.Add(1); a.p.Store(nil); a.v.Store(1); a.b.Store(true)
	time.Sleep(0); runtime.Gosched()
	if a == nil { log.Fatal(); log.Fatalf(""); log.Fatalln(); os.Exit(1) }
}`,
			not: []string{"atomic.", "sync.", "time.Sleep", "runtime.Gosched", "log.Fatal", "os.Exit"},
		},
		{
			name: "type parameter channels are left alone",
			src:  `func f[C ~chan int](c C) { c <- 1 }`,
			want: []string{"c <- 1"},
			note: "send on a channel of type parameter type not instrumented",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeModule(t, map[string]string{"p.go": "package p\n\n" + tt.src + "\n"})
			res := instrumentFixture(t, dir, ".", Request{})
			got := rewrittenFile(t, res, "p.go")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("rewritten source lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(got, w) {
					t.Errorf("rewritten source has %q:\n%s", w, got)
				}
			}
			if want, got := strings.Count("package p\n\n"+tt.src+"\n", "\n"), strings.Count(got, "\n"); want != got {
				t.Errorf("rewritten source has %d lines, want %d", got, want)
			}
			if tt.note != "" && !strings.Contains(strings.Join(res.Notes, "\n"), tt.note) {
				t.Errorf("notes lack %q: %q", tt.note, res.Notes)
			}
		})
	}
}

// TestExternalTestsOnly instruments a package whose only files are an
// external test package.
func TestExternalTestsOnly(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"p_test.go": "package p_test\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {\n\tc := make(chan int, 1)\n\tc <- 1\n\t<-c\n}\n",
	})
	res := instrumentFixture(t, dir, ".", Request{})
	if res.PkgDir == "" || len(res.Tests) != 1 || res.Tests[0] != "TestX" {
		t.Fatalf("PkgDir %q, tests %v", res.PkgDir, res.Tests)
	}
	out, err := goTest(t, res, dir, "-v")
	if err != nil || !strings.Contains(out, "--- PASS: TestX") {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}
