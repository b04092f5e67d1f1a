package e2e

import (
	"encoding/json"
	"os"
	"runtime"
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
	var out [][]frame
	for _, pcs := range Stacks {
		var fs []frame
		it := runtime.CallersFrames(pcs)
		for {
			f, more := it.Next()
			fs = append(fs, frame{f.File, f.Line, f.Function})
			if !more {
				break
			}
		}
		out = append(out, fs)
	}
	data, _ := json.Marshal(out)
	if err := os.WriteFile(os.Getenv("STACKS_OUT"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
