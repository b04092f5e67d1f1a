package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDropLocalReplaces(t *testing.T) {
	tests := []struct {
		name, gomod   string
		kept, dropped []string
	}{
		{
			name:    "directory replaces go",
			gomod:   "module example.com/sdk\n\ngo 1.21\n\nrequire example.com/api v1.2.0\n\nreplace example.com/api => ../api\n\nreplace example.com/x => ./x\n",
			kept:    []string{"require example.com/api v1.2.0"},
			dropped: []string{"../api", "./x"},
		},
		{
			name:  "module replaces stay",
			gomod: "module example.com/sdk\n\ngo 1.21\n\nreplace example.com/api => example.com/fork v1.0.0\n",
			kept:  []string{"replace example.com/api => example.com/fork v1.0.0"},
		},
		{
			name:  "no replace",
			gomod: "module example.com/sdk\n\ngo 1.21\n",
			kept:  []string{"module example.com/sdk"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "go.mod")
			if err := os.WriteFile(path, []byte(tt.gomod), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := dropLocalReplaces(path); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got := string(data)
			for _, k := range tt.kept {
				if !strings.Contains(got, k) {
					t.Errorf("go.mod lost %q:\n%s", k, got)
				}
			}
			for _, d := range tt.dropped {
				if strings.Contains(got, d) {
					t.Errorf("go.mod still has %q:\n%s", d, got)
				}
			}
		})
	}
}
