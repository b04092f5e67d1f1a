// Package factcodec is the compact binary encoding of the analyzers'
// facts (lockset.Summary, race's accessFact), which implement
// gob.GobEncoder and gob.GobDecoder with it.
//
// go vet hands every package the facts of all the packages it imports,
// directly or not (the facts about methods are exported again by each
// importer), and most of them are never read: the facts keep their
// encoded form when they are decoded (see Raw) and are only parsed when
// an analyzer imports one, and exported again as they came. Gob's own
// encoding of the same structures, built by reflection, took a tenth of
// the CPU time of go vet -vettool=confirmvet on nats.go, most of it to
// decode facts nothing read.
//
// The encoding round-trips a fact to what gob's would: an empty slice
// decodes as nil.
package factcodec

import (
	"encoding/binary"
	"errors"
)

// A Writer appends values to an encoding.
type Writer struct {
	buf []byte
}

// Int appends v.
func (w *Writer) Int(v int) { w.buf = binary.AppendVarint(w.buf, int64(v)) }

// Bool appends b.
func (w *Writer) Bool(b bool) {
	var v byte
	if b {
		v = 1
	}
	w.buf = append(w.buf, v)
}

// String appends s.
func (w *Writer) String(s string) {
	w.buf = binary.AppendUvarint(w.buf, uint64(len(s)))
	w.buf = append(w.buf, s...)
}

// Len appends the length of a slice, which the reader reads with Len
// before its elements.
func (w *Writer) Len(n int) { w.buf = binary.AppendUvarint(w.buf, uint64(n)) }

// Strings appends a slice of strings.
func (w *Writer) Strings(ss []string) {
	w.Len(len(ss))
	for _, s := range ss {
		w.String(s)
	}
}

// Ints appends a slice of ints.
func (w *Writer) Ints(vs []int) {
	w.Len(len(vs))
	for _, v := range vs {
		w.Int(v)
	}
}

// Bytes returns the encoding.
func (w *Writer) Bytes() []byte { return w.buf }

// errCorrupt is the error of a Reader that ran past the end of its
// encoding or found a value out of range.
var errCorrupt = errors.New("factcodec: corrupt encoding")

// A Reader reads values from an encoding in the order a Writer appended
// them. After an error each read returns the zero value; Err reports it.
type Reader struct {
	buf []byte
	err error
}

// NewReader returns a Reader of data.
func NewReader(data []byte) *Reader { return &Reader{buf: data} }

func (r *Reader) fail() { r.err, r.buf = errCorrupt, nil }

// Int reads an int.
func (r *Reader) Int() int {
	v, n := binary.Varint(r.buf)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.buf = r.buf[n:]
	return int(v)
}

// Bool reads a bool.
func (r *Reader) Bool() bool {
	if len(r.buf) == 0 || r.buf[0] > 1 {
		r.fail()
		return false
	}
	b := r.buf[0] == 1
	r.buf = r.buf[1:]
	return b
}

// String reads a string.
func (r *Reader) String() string {
	n := r.Len()
	if n == 0 {
		return ""
	}
	s := string(r.buf[:n])
	r.buf = r.buf[n:]
	return s
}

// Len reads the length of a slice. Each element takes at least one byte,
// so a length greater than what remains is an error.
func (r *Reader) Len() int {
	v, n := binary.Uvarint(r.buf)
	if n <= 0 || v > uint64(len(r.buf)-n) {
		r.fail()
		return 0
	}
	r.buf = r.buf[n:]
	return int(v)
}

// Strings reads a slice of strings; nil when empty.
func (r *Reader) Strings() []string {
	n := r.Len()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = r.String()
	}
	return ss
}

// Ints reads a slice of ints; nil when empty.
func (r *Reader) Ints() []int {
	n := r.Len()
	if n == 0 {
		return nil
	}
	vs := make([]int, n)
	for i := range vs {
		vs[i] = r.Int()
	}
	return vs
}

// Err returns the error of the reads, and an error when bytes remain
// after them.
func (r *Reader) Err() error {
	if r.err == nil && len(r.buf) > 0 {
		return errCorrupt
	}
	return r.err
}
