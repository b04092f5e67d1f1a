package factcodec

import (
	"slices"
	"testing"
)

func encode() []byte {
	var w Writer
	w.Int(-7)
	w.Bool(true)
	w.String("mu")
	w.Strings([]string{"a", "", "bc"})
	w.Ints([]int{1, -2, 300})
	w.Ints(nil)
	return w.Bytes()
}

func TestRoundTrip(t *testing.T) {
	r := NewReader(encode())
	i, b, s, ss, is, none := r.Int(), r.Bool(), r.String(), r.Strings(), r.Ints(), r.Ints()
	if err := r.Err(); err != nil {
		t.Fatalf("Err() = %v", err)
	}
	if i != -7 || !b || s != "mu" || !slices.Equal(ss, []string{"a", "", "bc"}) || !slices.Equal(is, []int{1, -2, 300}) || none != nil {
		t.Errorf("read %v %v %q %q %v %v", i, b, s, ss, is, none)
	}
}

// TestCorrupt checks that a truncated encoding, or one with bytes left
// over, is an error and not a silent misread.
func TestCorrupt(t *testing.T) {
	data := encode()
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"truncated", data[:len(data)-3]},
		{"one byte short", data[:len(data)-1]},
		{"trailing", append(slices.Clone(data), 0)},
		{"bad bool", []byte{0x0d, 2}},
	}
	for _, tt := range tests {
		r := NewReader(tt.data)
		r.Int()
		r.Bool()
		_ = r.String()
		r.Strings()
		r.Ints()
		r.Ints()
		if r.Err() == nil {
			t.Errorf("%s: Err() = nil, want an error", tt.name)
		}
	}
}
