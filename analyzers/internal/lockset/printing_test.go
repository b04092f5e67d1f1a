package lockset

import (
	"slices"
	"testing"
)

func TestFormatUses(t *testing.T) {
	tests := []struct {
		format string
		n      int
		want   []bool
		ok     bool
	}{
		{"%s", 1, []bool{true}, true},
		{"%d %v", 2, []bool{false, true}, true},
		{"100%% of %q", 1, []bool{true}, true},
		{"%*d %-8.3s %#x", 4, []bool{false, false, true, true}, true},
		{"%.*f %w", 3, []bool{false, false, true}, true},
		{"%T %p %t", 3, []bool{false, false, false}, true},
		{"%[2]s %[1]s", 2, nil, false},
		{"trailing %", 0, []bool{}, true},
	}
	for _, tt := range tests {
		got, ok := formatUses(tt.format, tt.n)
		if ok != tt.ok || ok && !slices.Equal(got, tt.want) {
			t.Errorf("formatUses(%q, %d) = %v, %v; want %v, %v", tt.format, tt.n, got, ok, tt.want, tt.ok)
		}
	}
}
