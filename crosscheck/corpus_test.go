package crosscheck

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/axiom"
	"github.com/rmacheck/rmacheck/explorer"
	"github.com/rmacheck/rmacheck/litmus"
	"github.com/rmacheck/rmacheck/spec"
)

// TestDev runs the files of $CROSS (a glob) and prints every disagreement (a
// development aid; skipped without it).
func TestDev(t *testing.T) {
	glob := os.Getenv("CROSS")
	if glob == "" {
		t.Skip("set CROSS to a glob of .lit files")
	}
	files, _ := filepath.Glob(glob)
	sort.Strings(files)
	hws := []spec.HW{spec.Relaxed}
	if h := os.Getenv("CROSSHW"); h != "" {
		hws = nil
		for _, n := range strings.Split(h, ",") {
			hw, err := spec.ParseHW(n)
			if err != nil {
				t.Fatal(err)
			}
			hws = append(hws, hw)
		}
	}
	agree, out, bad := 0, 0, 0
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			t.Logf("%s: %v", f, err)
			continue
		}
		for _, c := range Cases(f, lt, hws) {
			r := Run(c, nil, explorer.Options{})
			switch {
			case r.OutOfScope != nil:
				out++
			case r.Err != nil:
				bad++
				fmt.Printf("ERROR %s: %v\n", c, r.Err)
			case len(r.Diffs) > 0:
				bad++
				fmt.Printf("DIFF %s\n", c)
				for _, d := range r.Diffs {
					fmt.Printf("   %s\n", d)
					if os.Getenv("CROSSWIT") != "" {
						for _, l := range d.Witness {
							fmt.Printf("        %s\n", l)
						}
					}
				}
			default:
				agree++
			}
		}
	}
	fmt.Printf("agree %d, out of scope %d, disagree %d\n", agree, out, bad)
}

// TestScopeDev prints, for $CROSS, the constructs that keep files out of scope.
func TestScopeDev(t *testing.T) {
	glob := os.Getenv("CROSS")
	if glob == "" {
		t.Skip("set CROSS to a glob of .lit files")
	}
	files, _ := filepath.Glob(glob)
	count := map[string]int{}
	alone := map[string]int{}
	for _, f := range files {
		lt, err := litmus.ParseFile(f)
		if err != nil {
			continue
		}
		sem, _ := spec.Preset("mpi-4.1")
		err = axiom.CheckScope(lt, sem)
		if err == nil {
			continue
		}
		cs := err.(axiom.ScopeError).Constructs()
		for _, c := range cs {
			count[c]++
		}
		if len(cs) == 1 {
			alone[cs[0]]++
		}
	}
	for c, n := range count {
		fmt.Printf("%4d %4d alone  %s\n", n, alone[c], c)
	}
}
