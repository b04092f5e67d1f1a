package lockset

import (
	"bytes"
	"fmt"
	"go/token"

	"github.com/confirm-go/confirm/analyzers/internal/factcodec"
)

// GobEncode encodes s with factcodec: the encoding it was decoded from,
// for an imported fact that was never parsed.
func (s *Summary) GobEncode() ([]byte, error) {
	if s.raw != nil {
		return s.raw, nil
	}
	var w factcodec.Writer
	writeItems(&w, s.Acquires)
	writeItems(&w, s.Releases)
	writeItems(&w, s.Holds)
	writeItems(&w, s.CondHolds)
	w.Len(len(s.ParamCalls))
	for _, pc := range s.ParamCalls {
		w.Int(pc.Param)
		writeItems(&w, pc.Held)
	}
	writeItems(&w, s.Neutral)
	return w.Bytes(), nil
}

// GobDecode keeps data, which parse decodes when the fact is imported:
// most facts a package receives are only exported again.
func (s *Summary) GobDecode(data []byte) error {
	*s = Summary{raw: bytes.Clone(data)}
	return nil
}

// parse decodes the fields of a Summary that GobDecode left encoded.
func (s *Summary) parse() {
	if s.raw == nil {
		return
	}
	r := factcodec.NewReader(s.raw)
	*s = Summary{}
	s.Acquires = readItems(r)
	s.Releases = readItems(r)
	s.Holds = readItems(r)
	s.CondHolds = readItems(r)
	if n := r.Len(); n > 0 {
		s.ParamCalls = make([]ParamCall, n)
		for i := range s.ParamCalls {
			s.ParamCalls[i] = ParamCall{Param: r.Int(), Held: readItems(r)}
		}
	}
	s.Neutral = readItems(r)
	if err := r.Err(); err != nil {
		panic(fmt.Sprintf("lockset: decoding a summary: %v", err))
	}
}

func writeItems(w *factcodec.Writer, items []Item) {
	w.Len(len(items))
	for i := range items {
		it := &items[i]
		w.String(it.Class)
		w.Int(int(it.Mode))
		w.String(it.Inst)
		w.Int(it.Param)
		w.String(it.Suffix)
		w.Int(int(it.Kind))
		w.Int(int(it.Pos))
		w.String(it.Position)
		w.Strings(it.Chain)
		w.Bool(it.Dynamic)
		w.Bool(it.Callback)
		writeItems(w, it.Unheld)
		w.Bool(it.Relocked)
	}
}

func readItems(r *factcodec.Reader) []Item {
	n := r.Len()
	if n == 0 {
		return nil
	}
	items := make([]Item, n)
	for i := range items {
		it := &items[i]
		it.Class = r.String()
		it.Mode = Mode(r.Int())
		it.Inst = r.String()
		it.Param = r.Int()
		it.Suffix = r.String()
		it.Kind = Kind(r.Int())
		it.Pos = token.Pos(r.Int())
		it.Position = r.String()
		it.Chain = r.Strings()
		it.Dynamic = r.Bool()
		it.Callback = r.Bool()
		it.Unheld = readItems(r)
		it.Relocked = r.Bool()
	}
	return items
}
