package instrument

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unitSource is one unit of the generated package; %[1]d numbers it.
const unitSource = `
// Store%[1]d is guarded by a mutex.
type Store%[1]d struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	items map[string]int
	n     int
	hits  atomic.Int64
	ch    chan int
}

// NewStore%[1]d makes a store.
func NewStore%[1]d() *Store%[1]d {
	return &Store%[1]d{items: make(map[string]int), ch: make(chan int, 4)}
}

// Put stores v.
func (s *Store%[1]d) Put(k string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items[k] = v
	s.n++
	total%[1]d += v
}

// Get loads k.
func (s *Store%[1]d) Get(k string) (int, bool) {
	s.rw.RLock()
	defer s.rw.RUnlock()
	v, ok := s.items[k]
	s.hits.Add(1)
	return v, ok
}

// Pump moves values between channels until quit.
func (s *Store%[1]d) Pump(in <-chan int, quit chan struct{}) int {
	var wg sync.WaitGroup
	sum := 0
loop:
	for {
		select {
		case v, ok := <-in:
			if !ok {
				break loop
			}
			wg.Add(1)
			go func(v int) {
				defer wg.Done()
				s.ch <- v
			}(v)
			sum += <-s.ch
		case <-quit:
			break loop
		default:
			time.Sleep(time.Microsecond)
		}
	}
	for v := range s.ch {
		sum += v
		if len(s.ch) == 0 {
			break
		}
	}
	wg.Wait()
	return sum
}

var total%[1]d int
`

// writeMidSize writes a module whose one package has units units of
// unitSource (about 80 lines each) spread over files of 10 units.
func writeMidSize(b *testing.B, units int) string {
	dir := b.TempDir()
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/mid\n\ngo 1.22\n"), 0o644))
	for f := 0; f*10 < units; f++ {
		var src strings.Builder
		src.WriteString("package mid\n\nimport (\n\t\"sync\"\n\t\"sync/atomic\"\n\t\"time\"\n)\n")
		for u := f * 10; u < units && u < f*10+10; u++ {
			fmt.Fprintf(&src, unitSource, u)
		}
		must(os.WriteFile(filepath.Join(dir, fmt.Sprintf("mid%d.go", f)), []byte(src.String()), 0o644))
	}
	return dir
}

// BenchmarkInstrument measures the instrumentation of a generated mid-size
// package (100 units, about 8000 lines) with every access instrumented:
// loading and type-checking with go/packages, rewriting, and type-checking
// the rewritten package against the runtime.
func BenchmarkInstrument(b *testing.B) {
	dir := writeMidSize(b, 100)
	for b.Loop() {
		res, err := Instrument(context.Background(), Request{Dir: dir, Package: ".", Accesses: true})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(res.Locations)), "locations")
		if err := res.Remove(); err != nil {
			b.Fatal(err)
		}
	}
}
