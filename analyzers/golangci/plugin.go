// Package golangci registers the Confirm analyzers (lockorder and race) as
// a golangci-lint module plugin named "confirm".
//
// Build a golangci-lint binary that contains the plugin with
// `golangci-lint custom` and a .custom-gcl.yml such as the one at the root
// of this repository:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/confirm-go/confirm
//	    import: github.com/confirm-go/confirm/analyzers/golangci
//	    version: latest # or path: /path/to/a/checkout
//
// and enable it in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable:
//	    - confirm
//	  settings:
//	    custom:
//	      confirm:
//	        type: module
//	        description: lock-order cycles and data races (Confirm)
//	        settings:
//	          disable: [race] # optional: analyzers to turn off
//
// golangci-lint reports every finding under the linter name "confirm", its
// message prefixed with the name of the analyzer that produced it, for
// example "lockorder: ...".
package golangci

import (
	"fmt"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/confirm-go/confirm/analyzers/lockorder"
	"github.com/confirm-go/confirm/analyzers/race"
)

// Name is the name under which the plugin registers itself, the key of its
// section in linters.settings.custom and the linter name of its findings.
const Name = "confirm"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin settings read from
// linters.settings.custom.confirm.settings.
type Settings struct {
	// Disable lists analyzers, by name, that the plugin does not run.
	Disable []string `json:"disable"`
}

// Analyzers returns every analyzer the plugin can run.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{lockorder.Analyzer, race.Analyzer}
}

// plugin is the register.LinterPlugin of Confirm.
type plugin struct {
	analyzers []*analysis.Analyzer
}

// New decodes the plugin settings and returns the plugin. It fails when the
// settings hold unknown fields, name an unknown analyzer, or disable every
// analyzer.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("%s plugin settings: %w", Name, err)
	}
	all := Analyzers()
	var names []string
	for _, a := range all {
		names = append(names, a.Name)
	}
	for _, d := range s.Disable {
		if !slices.Contains(names, d) {
			return nil, fmt.Errorf("%s plugin settings: disable: unknown analyzer %q (known: %s)", Name, d, strings.Join(names, ", "))
		}
	}
	var enabled []*analysis.Analyzer
	for _, a := range all {
		if !slices.Contains(s.Disable, a.Name) {
			enabled = append(enabled, a)
		}
	}
	if len(enabled) == 0 {
		return nil, fmt.Errorf("%s plugin settings: disable turns off every analyzer; disable the linter instead", Name)
	}
	return &plugin{analyzers: enabled}, nil
}

// BuildAnalyzers returns the enabled analyzers.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return p.analyzers, nil
}

// GetLoadMode reports that the analyzers need type information.
func (p *plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}
