package golangci

import (
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
)

func TestNew(t *testing.T) {
	tests := []struct {
		name     string
		settings any
		want     []string // analyzer names, in order
		wantErr  string
	}{
		{"no settings", nil, []string{"lockorder", "race"}, ""},
		{"empty settings", map[string]any{}, []string{"lockorder", "race"}, ""},
		{"disable race", map[string]any{"disable": []any{"race"}}, []string{"lockorder"}, ""},
		{"disable lockorder", map[string]any{"disable": []string{"lockorder"}}, []string{"race"}, ""},
		{"unknown analyzer", map[string]any{"disable": []any{"deadlock"}}, nil, `unknown analyzer "deadlock"`},
		{"unknown field", map[string]any{"enable": []any{"race"}}, nil, `unknown field "enable"`},
		{"everything disabled", map[string]any{"disable": []any{"race", "lockorder"}}, nil, "every analyzer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.settings)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("New(%v) error = %v, want one containing %q", tt.settings, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%v): %v", tt.settings, err)
			}
			as, err := p.BuildAnalyzers()
			if err != nil {
				t.Fatalf("BuildAnalyzers: %v", err)
			}
			var got []string
			for _, a := range as {
				got = append(got, a.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("analyzers = %v, want %v", got, tt.want)
			}
			if err := analysis.Validate(as); err != nil {
				t.Errorf("invalid analyzers: %v", err)
			}
			if m := p.GetLoadMode(); m != register.LoadModeTypesInfo {
				t.Errorf("load mode %q, want %q", m, register.LoadModeTypesInfo)
			}
		})
	}
}

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin(Name)
	if err != nil {
		t.Fatalf("plugin %q not registered: %v", Name, err)
	}
	if _, err := newPlugin(nil); err != nil {
		t.Fatalf("registered constructor: %v", err)
	}
}
