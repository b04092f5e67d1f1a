package main

import (
	"slices"
	"testing"
)

func TestVetJSONKeys(t *testing.T) {
	out := `# example.com/m
{
	"example.com/m": {
		"race": [
			{"posn": "/m/a.go:3:2", "message": "possible data race: x", "related": [{"posn": "/m/a.go:9:1", "message": "writes x"}]}
		],
		"lockorder": []
	}
}
# example.com/m [example.com/m.test]
{"example.com/m [example.com/m.test]": {"lockorder": [{"posn": "/m/b_test.go:7:1", "message": "double lock: y"}]}}
`
	got, err := vetJSONKeys("/m", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"a.go:3:2: possible data race: x", "b_test.go:7:1: double lock: y"}
	if !slices.Equal(got, want) {
		t.Errorf("keys %q, want %q", got, want)
	}
	if _, err := vetJSONKeys("/m", []byte(`{"example.com/m": {"race": {"error": "analysis failed"}}}`)); err == nil {
		t.Error("an analyzer's error is not an error")
	}
}

func TestGolangciKeys(t *testing.T) {
	out := `{"Issues":[
		{"FromLinter":"confirm","Text":"race: possible data race: x","Pos":{"Filename":"a.go","Line":3,"Column":2}},
		{"FromLinter":"confirm","Text":"race(related information): writes x","Pos":{"Filename":"a.go","Line":9,"Column":1}},
		{"FromLinter":"confirm","Text":"lockorder: double lock: y","Pos":{"Filename":"/m/b_test.go","Line":7,"Column":1}}
	]}
2 issues:
* confirm: 2
`
	got, err := golangciKeys("/m", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.go:3:2: possible data race: x", "b_test.go:7:1: double lock: y"}
	if !slices.Equal(got, want) {
		t.Errorf("keys %q, want %q", got, want)
	}
}

func TestDiffKeys(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		want, got                []string
		missing, extra, repeated []string
	}{
		{"same", []string{"a", "b"}, []string{"b", "a"}, nil, nil, nil},
		{"missing and extra", []string{"a", "b"}, []string{"a", "c"}, []string{"b"}, []string{"c"}, nil},
		{"twice", []string{"a"}, []string{"a", "a"}, nil, nil, []string{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, e, r := diffKeys(tc.want, tc.got)
			if !slices.Equal(m, tc.missing) || !slices.Equal(e, tc.extra) || !slices.Equal(r, tc.repeated) {
				t.Errorf("diffKeys = missing %q extra %q twice %q, want %q %q %q", m, e, r, tc.missing, tc.extra, tc.repeated)
			}
		})
	}
}
