package conform

import (
	"strings"
	"testing"
)

func TestParseProbe(t *testing.T) {
	out := `LIB Fake MPI 1.0
VERSION 4 0
MODEL allocate unified
SQ allocate error 58 1
SQ dynamic ok 8
ALIGN MPI_Win_allocate 3 0 1 3
ALIGN MPI_Win_allocate_shared 3 0 1 3
ALIGN MPI_Alloc_mem 3 64 0 0
CONTIG 3 0 1
INFO MPI_Win_allocate -
`
	pr, err := parseProbe(MPICH, []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"MPI_Win_shared_query on allocate":                            "VIOLATES MPI-4.1",
		"MPI_Win_shared_query on dynamic":                             "VIOLATES MPI-4.1",
		"MPI_Win_allocate size=3 rank=1":                              "VIOLATES MPI-4.0 alignment",
		"MPI_Win_allocate_shared size=3 rank=1":                       "- (contiguous",
		"MPI_Alloc_mem size=3 rank=0 mpi_minimum_memory_alignment=64": "ok",
	}
	for _, r := range pr.Results {
		if w, ok := want[r.Item]; ok {
			if !strings.HasPrefix(r.Verdict, w) && !strings.Contains(r.Verdict, w) {
				t.Errorf("%s: verdict %q, want %q", r.Item, r.Verdict, w)
			}
			delete(want, r.Item)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing results: %v", want)
	}
	// MPI 4.0 claimed: the alignment violation counts, the 4.1 ones do not.
	if n := pr.Violations(); n != 1 {
		t.Errorf("violations %d, want 1", n)
	}
}
