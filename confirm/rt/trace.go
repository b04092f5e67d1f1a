package rt

import (
	"runtime"
	"strings"
)

// symbolizer turns PCs into the user's source positions, caching them.
type symbolizer map[uintptr]runtime.Frame

func (s symbolizer) frame(pc uintptr) runtime.Frame {
	if pc == 0 {
		return runtime.Frame{}
	}
	if f, ok := s[pc]; ok {
		return f
	}
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	s[pc] = f
	return f
}

// posOf returns "file:line" of a PC, or "".
func posOf(pc uintptr) string {
	if pc == 0 {
		return ""
	}
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	if f.File == "" {
		return ""
	}
	return f.File + ":" + itoa(f.Line)
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// traceLocked symbolises the execution's trace and goroutines.
func (e *exec) traceLocked() ([]Event, []Goroutine) {
	sym := symbolizer{}
	evs := make([]Event, 0, len(e.events))
	for _, ev := range e.events {
		out := Event{Step: ev.step, G: ev.g, Op: ev.op.String(), Object: ev.obj, Choice: ev.choice}
		if ev.kind != kindNone {
			out.ObjectKind = kindNames[ev.kind]
		}
		if ev.op == opRead || ev.op == opWrite || ev.op == opObserve {
			out.Loc = ev.loc
		}
		if f := sym.frame(ev.pc); f.File != "" {
			out.File, out.Line, out.Func = f.File, f.Line, f.Function
		}
		evs = append(evs, out)
	}
	gs := make([]Goroutine, 0, len(e.gs))
	for _, g := range e.gs {
		out := Goroutine{ID: g.id, Parent: g.parent}
		if f := sym.frame(g.spawnPC); f.File != "" {
			out.File, out.Line = f.File, f.Line
		}
		if fn := runtime.FuncForPC(g.fnPC); fn != nil {
			out.Func = strings.TrimSuffix(fn.Name(), "-fm")
		}
		gs = append(gs, out)
	}
	return evs, gs
}
