package e2e

import (
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
)

type frame struct {
	File string
	Line int
	Func string
}

// TestSpawn runs Spawn and writes the stacks Probe captured, as frames,
// to the file STACKS_OUT names.
func TestSpawn(t *testing.T) {
	Spawn()
	type stack struct {
		Frames []frame
		// Start is the entry of the outermost function of this package
		// on the stack: what the goroutine was started with.
		Start frame
	}
	var out []stack
	for _, pcs := range Stacks {
		var s stack
		it := runtime.CallersFrames(pcs)
		for {
			f, more := it.Next()
			s.Frames = append(s.Frames, frame{f.File, f.Line, f.Function})
			if strings.HasPrefix(f.Function, "example.com/e2e.") && f.Func != nil {
				file, line := f.Func.FileLine(f.Func.Entry())
				s.Start = frame{file, line, f.Func.Name()}
			}
			if !more {
				break
			}
		}
		out = append(out, s)
	}
	data, _ := json.Marshal(out)
	if err := os.WriteFile(os.Getenv("STACKS_OUT"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
