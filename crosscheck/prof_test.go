package crosscheck

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/rmacheck/rmacheck/axiom"
	"github.com/rmacheck/rmacheck/spec"
)

func TestProfDev(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PROFN"))
	if n == 0 {
		t.Skip()
	}
	tests := benchFiles(&testing.B{}, "plain")[:n]
	m, _ := axiom.Preset("mpi-4.1")
	type tm struct {
		name string
		d    time.Duration
		c    int
	}
	var ts []tm
	for _, lt := range tests {
		st := time.Now()
		r, err := axiom.Run(lt, m, spec.Relaxed)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, tm{lt.Name, time.Since(st), r.Candidates})
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].d > ts[j].d })
	for _, x := range ts[:10] {
		fmt.Println(x.name, x.d, x.c)
	}
}
