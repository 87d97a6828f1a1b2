package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rmacheck/rmacheck/gen"
)

// herdOutcome matches one item of a herd7 outcome line: "0:EAX=1;" or "x=2;".
var herdOutcome = regexp.MustCompile(`([\w:\[\]]+)=(-?\d+);`)

// TestHerdTwinsAgree: on the scaling tests (2 to 5 processes) and 40 plain-family
// tests, herd7 -model x86tso.cat on the x86 twins finds the same final outcomes as
// rmacheck under mpi-4.1 with hw tso (plain accesses in lock_all are x86-TSO
// accesses there), register for register through the twin's renaming. It needs
// herd7 ($HERD7 or PATH) and skips without it.
func TestHerdTwinsAgree(t *testing.T) {
	herd := herd7Bin(t)
	scaling, err := gen.ScalingFamily(nil, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := gen.PlainFamily(40, 1)
	if err != nil {
		t.Fatal(err)
	}
	lits, twins, regs := writeTwins(t, t.TempDir(), append(scaling, plain...))
	want := map[string]map[string]bool{} // test -> rmacheck's outcomes in herd7's names
	var out, errb bytes.Buffer
	if code := run(append([]string{"run", "--sem", "mpi-4.1", "--hw", "tso", "--json"}, lits...), &out, &errb); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errb.String())
	}
	for _, line := range bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n")) {
		var r struct {
			Test     string
			Outcomes []struct{ Values map[string]int64 }
		}
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		set := map[string]bool{}
		for _, o := range r.Outcomes {
			var items []string
			for k, v := range o.Values {
				if p, reg, ok := strings.Cut(k, ":"); ok {
					var n int
					fmt.Sscan(p, &n)
					k = p + ":" + regs[r.Test][n][reg]
				}
				items = append(items, fmt.Sprintf("%s=%d", k, v))
			}
			slices.Sort(items)
			set[strings.Join(items, " ")] = true
		}
		want[r.Test] = set
	}
	hout, err := exec.Command(herd, append([]string{"-model", "x86tso.cat"}, twins...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("herd7: %v\n%s", err, hout)
	}
	got := map[string]map[string]bool{}
	var test string
	left := 0
	sc := bufio.NewScanner(bytes.NewReader(hout))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Test "):
			test = strings.Fields(line)[1]
			got[test] = map[string]bool{}
		case strings.HasPrefix(line, "States "):
			fmt.Sscan(strings.TrimPrefix(line, "States "), &left)
		case left > 0:
			left--
			var items []string
			for _, m := range herdOutcome.FindAllStringSubmatch(line, -1) {
				items = append(items, strings.Trim(m[1], "[]")+"="+m[2])
			}
			slices.Sort(items)
			got[test][strings.Join(items, " ")] = true
		}
	}
	if len(got) != len(want) {
		t.Fatalf("herd7 gave %d tests, rmacheck %d:\n%s", len(got), len(want), hout)
	}
	for name, w := range want {
		g := got[name]
		if len(w) == 0 || len(g) == 0 {
			t.Errorf("%s: %d outcomes from rmacheck, %d from herd7", name, len(w), len(g))
		}
		for o := range w {
			if !g[o] {
				t.Errorf("%s: rmacheck (mpi-4.1, tso) finds %s, herd7 x86tso does not", name, o)
			}
		}
		for o := range g {
			if !w[o] {
				t.Errorf("%s: herd7 x86tso finds %s, rmacheck (mpi-4.1, tso) does not", name, o)
			}
		}
	}
}
