// Package corpus lists the .lit files the test suites run: the project's corpus
// (litmus/*/*.lit) and the shared acceptance tests (../shared/acceptance/*.lit), with
// the known disagreements of litmus/acceptance-disagreements.txt
// (../shared/acceptance/README.md). It is the one place tests find these files, so
// every suite skips exactly the same listed files and prints why.
package corpus

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Root is the module root (the folder holding go.mod).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// AcceptanceDir is ../shared/acceptance beside the module root ("" when absent).
func AcceptanceDir() string {
	dir := filepath.Join(Root(), "..", "shared", "acceptance")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// AcceptanceFile is the path of ../shared/acceptance/NAME; a test that needs it is
// skipped when the folder is absent (a checkout without ../shared).
func AcceptanceFile(t testing.TB, name string) string {
	t.Helper()
	dir := AcceptanceDir()
	if dir == "" {
		t.Skipf("../shared/acceptance is absent: %s not run", name)
	}
	return filepath.Join(dir, name)
}

// Litmus lists the corpus files, litmus/*/*.lit, sorted.
func Litmus(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(Root(), "litmus", "*", "*.lit"))
	if len(files) == 0 {
		t.Fatal("no corpus files under litmus/")
	}
	sort.Strings(files)
	return files
}

// Acceptance lists ../shared/acceptance/*.lit, without the files listed whole in the
// disagreements file (each skip is logged with its reason). It is empty when the
// folder is absent.
func Acceptance(t testing.TB) []string {
	dir := AcceptanceDir()
	if dir == "" {
		t.Log("../shared/acceptance is absent")
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.lit"))
	sort.Strings(files)
	known := Disagreements(t)
	var out []string
	for _, f := range files {
		if why, ok := known[filepath.Base(f)]; ok {
			t.Logf("acceptance file skipped whole (litmus/acceptance-disagreements.txt): %s: %s", filepath.Base(f), why)
			continue
		}
		out = append(out, f)
	}
	return out
}

// All is Litmus followed by Acceptance.
func All(t testing.TB) []string { return append(Litmus(t), Acceptance(t)...) }

// Disagreements reads litmus/acceptance-disagreements.txt. A line is
// "FILE PRESET HW | why" (one expectation) or "FILE | why" (the whole file, for
// syntax a later issue adds); the key is FILE PRESET HW or FILE, space-separated.
func Disagreements(t testing.TB) map[string]string {
	f, err := os.Open(filepath.Join(Root(), "litmus", "acceptance-disagreements.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	known := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, why, _ := strings.Cut(line, "|")
		known[strings.Join(strings.Fields(key), " ")] = strings.TrimSpace(why)
	}
	return known
}
