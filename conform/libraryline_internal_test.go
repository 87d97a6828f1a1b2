package conform

import "testing"

// TestLibraryLineOfEachVersion: the first line of MPI_Get_library_version, as each
// library version the matrix (reports/matrix) ran prints it, names the library and
// version a report column shows. MPICH 4.0.2 separates with a tab, MPICH 5.0 pads
// with spaces (src/mpi/init/initinfo.c); Open MPI 5 prints the same head as 4.1.
func TestLibraryLineOfEachVersion(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"MPICH Version:\t4.0.2", "MPICH 4.0.2"},                            // Debian 12's libmpich12
		{"MPICH Version:      5.0.1", "MPICH 5.0.1"},                        // built from the v5.0.1 tag
		{" MPICH Version:      5.0.0rc3", "MPICH 5.0.0rc3"},                 // a release candidate, after "LIBRARY"
		{"MPICH Version:      4.3.2\nMPICH Release date: x", "MPICH 4.3.2"}, // more lines than the first
		{"Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022", "Open MPI 4.1.4"},
		{"Open MPI v5.0.10, package: Open MPI root@host Distribution, ident: 5.0.10, repo rev: v5.0.10, Nov 03, 2026", "Open MPI 5.0.10"},
		{"Fake MPI v9.9, a test double", "Fake MPI v9.9"}, // another library: up to its first comma
	} {
		if got := libraryLine(tc.line); got != tc.want {
			t.Errorf("libraryLine(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
