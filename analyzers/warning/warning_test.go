package warning

import (
	"go/token"
	"testing"
)

func TestSuppresses(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"//confirm:ignore", true},
		{"//confirm:ignore benign: counter is approximate", true},
		{"//confirm:ignored", false},
		{"//nolint", true},
		{"//nolint // reason", true},
		{"//nolint:race", true},
		{"//nolint:errcheck,race // reason", true},
		{"//nolint:confirm", true},
		{"//nolint:all", true},
		{"//nolint:errcheck", false},
		{"//nolintx", false},
		{"// plain comment", false},
	}
	for _, tt := range tests {
		if got := suppresses(tt.text, "race"); got != tt.want {
			t.Errorf("suppresses(%q, race) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestComputeIDStable(t *testing.T) {
	mk := func(dir string, line int) *Warning {
		return &Warning{
			Analyzer: "lockorder", Kind: LockOrderCycle, Package: "example.com/bank",
			Objects: []string{"bank.A", "bank.B"},
			Sites: []Site{
				{Position: token.Position{Filename: dir + "/bank.go", Line: line}, Func: "f", Role: "acquires A", FuncLine: 2},
				{Position: token.Position{Filename: dir + "/bank.go", Line: line + 10}, Func: "g", Role: "acquires B while holding A", FuncLine: 3},
			},
		}
	}
	a, b := mk("/home/alice/src", 10), mk("/tmp/ci/clone", 40)
	if ComputeID(a, nil) != ComputeID(b, nil) {
		t.Errorf("ID depends on absolute path or absolute line: %s vs %s", ComputeID(a, nil), ComputeID(b, nil))
	}
	c := mk("/tmp", 10)
	c.Sites[1].Role = "acquires A while holding B"
	if ComputeID(a, nil) == ComputeID(c, nil) {
		t.Errorf("different warnings share ID %s", ComputeID(a, nil))
	}
}
