package main

import (
	"reflect"
	"testing"
)

func TestDelegates(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"./..."}, true},
		{[]string{"-json", "-race=false", "./..."}, true},
		{[]string{"-tags", "integration", "./..."}, true},
		{[]string{"-test=false", "./..."}, false},
		{[]string{"-cpuprofile=cpu.out", "./..."}, false},
		{[]string{"-V=full"}, false},
		{[]string{"-flags"}, false},
		{[]string{"-json", "-race=true", "/tmp/b001/vet.cfg"}, false},
		{nil, false},
		{[]string{"-json"}, false},
	}
	for _, tt := range tests {
		if got := delegates(tt.args); got != tt.want {
			t.Errorf("delegates(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestDecodeVetJSON(t *testing.T) {
	out := `# example.com/p
{
	"example.com/p": {
		"race": [{"posn": "/m/p/a.go:3:1", "message": "possible data race"}]
	}
}
# example.com/p [example.com/p.test]
{
	"example.com/p [example.com/p.test]": {
		"race": [
			{"posn": "/m/p/a.go:3:1", "message": "possible data race"},
			{"posn": "/m/p/a_test.go:9:2", "message": "another"}
		],
		"lockorder": {"error": "boom"}
	}
}
`
	tree, failures, err := decodeVetJSON([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string][]diagnostic{"example.com/p": {"race": {
		{Posn: "/m/p/a.go:3:1", Message: "possible data race"},
		{Posn: "/m/p/a_test.go:9:2", Message: "another"},
	}}}
	if !reflect.DeepEqual(tree, want) {
		t.Errorf("tree = %+v, want %+v", tree, want)
	}
	if len(failures) != 1 || failures[0] != "example.com/p: lockorder: boom" {
		t.Errorf("failures = %q", failures)
	}
}
