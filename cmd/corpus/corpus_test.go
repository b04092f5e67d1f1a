package main

import "testing"

func TestParse(t *testing.T) {
	mods, err := parseModules(modulesTxt)
	if err != nil || len(mods) < 4 || mods[0].name != "ants" {
		t.Fatalf("modules.txt: %v, %+v", err, mods)
	}
	if _, err := parseJudged(judgedTxt); err != nil {
		t.Fatalf("judged.txt: %v", err)
	}
	if _, err := parseJudged("ants race-1 maybe it looks odd"); err == nil {
		t.Error("a judgement that is neither true nor false was accepted")
	}
	j, err := parseJudged("ants bug-0011 false the test's own assertion")
	if err != nil || j["ants bug-0011"] == nil || j["ants bug-0011"].real || j["ants bug-0011"].reason != "the test's own assertion" {
		t.Errorf("parseJudged = %v, %v", j, err)
	}
	for p, want := range map[string]string{"github.com/panjf2000/ants/v2": "ants", "golang.org/x/sync": "sync", "github.com/patrickmn/go-cache": "go-cache"} {
		if got := moduleName(p); got != want {
			t.Errorf("moduleName(%s) = %s, want %s", p, got, want)
		}
	}
}
