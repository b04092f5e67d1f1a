// Package codectest checks that a fact's factcodec encoding round-trips
// every field.
package codectest

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"
)

// Fill sets every exported field of the struct v points to, and of the
// structs in its slices (two elements each, nested to depth levels), to
// values that are not zero and differ from one another.
func Fill(v any, depth int) {
	n := 0
	fill(reflect.ValueOf(v).Elem(), depth, &n)
}

func fill(v reflect.Value, depth int, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth, n)
			}
		}
	case reflect.Slice:
		if depth == 0 {
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fill(s.Index(i), depth-1, n)
		}
		v.Set(s)
	case reflect.String:
		v.SetString("s" + string(rune('a'+*n%26)) + string(rune('0'+*n%10)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n % 100))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n % 100))
	default:
		panic("codectest: no fill for " + v.Type().String())
	}
}

// RoundTrip encodes orig (a pointer to a filled fact) with gob, decodes it
// into a fresh value of its type, calls parse on that value and reports
// whether it equals orig.
func RoundTrip(t *testing.T, orig any, parse func(any)) {
	t.Helper()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(orig); err != nil {
		t.Fatal(err)
	}
	got := reflect.New(reflect.TypeOf(orig).Elem()).Interface()
	if err := gob.NewDecoder(&buf).Decode(got); err != nil {
		t.Fatal(err)
	}
	// Encoding again a value decoded but not parsed gives the same bytes.
	var again bytes.Buffer
	if err := gob.NewEncoder(&again).Encode(got); err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	if err := gob.NewEncoder(&first).Encode(orig); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), again.Bytes()) {
		t.Errorf("%T encoded again after decoding differs", orig)
	}
	parse(got)
	if !reflect.DeepEqual(orig, got) {
		t.Errorf("%T round trip:\n got %+v\nwant %+v", orig, got, orig)
	}
}
