package conform

import (
	"slices"
	"testing"
)

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
		{"Intel(R) MPI Library 2021.19.0 for Linux* OS", "Intel MPI 2021.19.0"}, // impi-rt 2021.19.0's
		{"Fake MPI v9.9, a test double", "Fake MPI v9.9"},                       // another library: up to its first comma
	} {
		if got := LibraryLine(tc.line); got != tc.want {
			t.Errorf("LibraryLine(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestLauncherFamilyAndMajor: each launcher's --version picks its family, and the major
// version that chooses a profile changed between releases (Open MPI 5's net).
func TestLauncherFamilyAndMajor(t *testing.T) {
	for _, tc := range []struct {
		out    string
		family Family
		major  int
	}{
		{"HYDRA build details:\n    Version:                                 4.0.2\n", MPICH, 4},
		{"mpiexec.openmpi (OpenRTE) 4.1.4\n", OpenMPI, 4},
		{"mpiexec (Open MPI) 5.0.11\n\nReport bugs to https://www.open-mpi.org/community/help/\n", OpenMPI, 5},
		{"Intel(R) MPI Library for Linux* OS, Version 2021.19.0 Build 20260929 (id: 1821d9b)\nCopyright 2003-2026, Intel Corporation.\n", IntelMPI, 2021},
	} {
		i := slices.IndexFunc(families, func(f family) bool { return f.launcher.MatchString(tc.out) })
		if i < 0 || families[i].Family != tc.family {
			t.Errorf("%q: family row %d, want %v", tc.out, i, tc.family)
		}
		if got := majorVersion(tc.out); got != tc.major {
			t.Errorf("majorVersion(%q) = %d, want %d", tc.out, got, tc.major)
		}
	}
}

// TestOpenMPI5Net: Open MPI 5 has no osc pt2pt, so its net profile is osc rdma; 4.x
// and an unknown version (the Debian package) keep pt2pt.
func TestOpenMPI5Net(t *testing.T) {
	for _, tc := range []struct {
		major int
		osc   string
	}{{0, "pt2pt"}, {4, "pt2pt"}, {5, "rdma"}} {
		lib := familyOf(OpenMPI).library("mpicc", "mpiexec", "")
		lib.Major = tc.major
		lib, err := lib.Over("net")
		if err != nil {
			t.Fatal(err)
		}
		if got := lib.ExecArgs[len(lib.ExecArgs)-1]; got != tc.osc {
			t.Errorf("Open MPI %d net: osc %s, want %s (%q)", tc.major, got, tc.osc, lib.ExecArgs)
		}
	}
}

// TestOpenMPI5Shm: Open MPI 5's shm profile is its own selection (osc sm alone cannot
// make a create window); 4.x keeps --mca osc ^rdma, whose atomics crash there.
func TestOpenMPI5Shm(t *testing.T) {
	for major, want := range map[int][]string{0: {"--mca", "osc", "^rdma"}, 4: {"--mca", "osc", "^rdma"}, 5: nil} {
		lib := familyOf(OpenMPI).library("mpicc", "mpiexec", "")
		lib.Major = major
		lib, err := lib.Over("shm")
		if err != nil {
			t.Fatal(err)
		}
		if got := lib.ExecArgs[len(familyOf(OpenMPI).execArgs):]; !slices.Equal(got, want) {
			t.Errorf("Open MPI %d shm: options %q, want %q", major, got, want)
		}
	}
}
