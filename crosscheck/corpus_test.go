package crosscheck

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/internal/corpus"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

var generated = flag.Bool("crosscheck.generated", false, "crosscheck bench/generated too (1,980 tests: minutes)")

func knownDepartures(t *testing.T) *Departures {
	f, err := os.Open(filepath.Join(corpus.Root(), "axiom", "testdata", "known-departures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := ParseDepartures(f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkFiles crosschecks files (named in departures as name gives) under every
// preset and hws: each case agrees, is out of scope, or is a known departure.
func checkFiles(t *testing.T, files []string, name func(string) string, hws []spec.HW) {
	d := knownDepartures(t)
	agree, out, known := 0, 0, 0
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			if strings.Contains(f, "/errors/") || strings.Contains(f, "acceptance") {
				continue // files that must not parse, or syntax of a later issue
			}
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, c := range Cases(name(f), lt, hws) {
			if why := d.Lookup(c.File, c.Preset, c.HW.String()); why != "" {
				t.Logf("known departure, skipped: %s: %s", c, why)
				known++
				continue
			}
			r := Run(c, nil, explorer.Options{})
			switch {
			case r.OutOfScope != nil:
				out++
			case r.Err != nil:
				t.Errorf("%s: %v", c, r.Err)
			case len(r.Diffs) > 0:
				var b strings.Builder
				for _, df := range r.Diffs {
					b.WriteString("\n  " + df.String())
					for _, l := range df.Witness {
						b.WriteString("\n      " + l)
					}
				}
				t.Errorf("%s: the engines disagree:%s", c, b.String())
			default:
				agree++
			}
		}
	}
	t.Logf("%d files: %d cases agree, %d out of the axiomatic engine's scope, %d known departures", len(files), agree, out, known)
}

func fromRoot(f string) string {
	rel, err := filepath.Rel(corpus.Root(), f)
	if err != nil {
		return f
	}
	return filepath.ToSlash(rel)
}

// TestCorpusAgrees: the two engines agree on every in-scope test of the corpus, on
// every preset and hardware model.
func TestCorpusAgrees(t *testing.T) {
	checkFiles(t, corpus.Litmus(t), fromRoot, spec.HWModels)
}

// TestAcceptanceAgrees: the same for ../shared/acceptance (every file: the
// disagreements file speaks of expectations, not of the engines).
func TestAcceptanceAgrees(t *testing.T) {
	dir := corpus.AcceptanceDir()
	if dir == "" {
		t.Skip("../shared/acceptance is absent")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.lit"))
	sort.Strings(files)
	checkFiles(t, files, func(f string) string { return "acceptance/" + filepath.Base(f) }, spec.HWModels)
}

// TestGeneratedAgrees: the same for bench/generated on hw relaxed (-crosscheck.generated).
func TestGeneratedAgrees(t *testing.T) {
	if !*generated {
		t.Skip("run with -crosscheck.generated")
	}
	files, _ := filepath.Glob(filepath.Join(corpus.Root(), "bench", "generated", "*.lit"))
	sort.Strings(files)
	checkFiles(t, files, fromRoot, []spec.HW{spec.Relaxed})
}
