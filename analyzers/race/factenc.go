package race

import (
	"bytes"
	"fmt"

	"github.com/confirm-go/confirm/analyzers/internal/factcodec"
)

// GobEncode encodes f with factcodec: the encoding it was decoded from,
// for an imported fact that was never parsed.
func (f *accessFact) GobEncode() ([]byte, error) {
	if f.raw != nil {
		return f.raw, nil
	}
	var w factcodec.Writer
	w.Len(len(f.Accesses))
	for i := range f.Accesses {
		a := &f.Accesses[i]
		w.Int(a.Param)
		w.String(a.Global)
		w.String(a.Path)
		w.Int(a.ObjKey)
		w.Int(a.ObjName)
		w.Bool(a.Write)
		writeHeld(&w, a.Held)
		w.Ints(a.Chain)
		w.String(a.Dyn)
		w.Bool(a.Atomic)
		w.Ints(a.Publishes)
		w.Ints(a.Acquires)
	}
	w.Strings(f.Names)
	w.Bool(f.Signals)
	w.Bool(f.Waits)
	w.Bool(f.Fresh)
	w.Ints(f.Starts)
	w.Len(len(f.Parallel))
	for _, pc := range f.Parallel {
		w.Int(pc.Param)
		writeHeld(&w, pc.Held)
	}
	return w.Bytes(), nil
}

// GobDecode keeps data, which parse decodes when the fact is imported:
// most facts a package receives are only exported again.
func (f *accessFact) GobDecode(data []byte) error {
	*f = accessFact{raw: bytes.Clone(data)}
	return nil
}

// parse decodes the fields of an accessFact that GobDecode left encoded.
func (f *accessFact) parse() {
	if f.raw == nil {
		return
	}
	r := factcodec.NewReader(f.raw)
	*f = accessFact{}
	if n := r.Len(); n > 0 {
		f.Accesses = make([]factAccess, n)
		for i := range f.Accesses {
			a := &f.Accesses[i]
			a.Param = r.Int()
			a.Global = r.String()
			a.Path = r.String()
			a.ObjKey = r.Int()
			a.ObjName = r.Int()
			a.Write = r.Bool()
			a.Held = readHeld(r)
			a.Chain = r.Ints()
			a.Dyn = r.String()
			a.Atomic = r.Bool()
			a.Publishes = r.Ints()
			a.Acquires = r.Ints()
		}
	}
	f.Names = r.Strings()
	f.Signals = r.Bool()
	f.Waits = r.Bool()
	f.Fresh = r.Bool()
	f.Starts = r.Ints()
	if n := r.Len(); n > 0 {
		f.Parallel = make([]parallelCall, n)
		for i := range f.Parallel {
			f.Parallel[i] = parallelCall{Param: r.Int(), Held: readHeld(r)}
		}
	}
	if err := r.Err(); err != nil {
		panic(fmt.Sprintf("race: decoding an access fact: %v", err))
	}
}

func writeHeld(w *factcodec.Writer, held []heldLock) {
	w.Len(len(held))
	for _, h := range held {
		w.String(h.Class)
		w.Bool(h.Read)
		w.Bool(h.Assumed)
		w.Bool(h.Flag)
	}
}

func readHeld(r *factcodec.Reader) []heldLock {
	n := r.Len()
	if n == 0 {
		return nil
	}
	held := make([]heldLock, n)
	for i := range held {
		held[i] = heldLock{Class: r.String(), Read: r.Bool(), Assumed: r.Bool(), Flag: r.Bool()}
	}
	return held
}
