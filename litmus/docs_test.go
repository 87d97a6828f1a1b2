package litmus

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestLanguageReferenceCoversTheLanguage: docs/language.md, the reference of the
// language, has an entry for every word the parser knows: each instruction, window
// flavor and key, cell type, accumulate op, assertion and final condition. A word
// added to the language without its entry fails here. (cmd/rmacheck's tests run the
// page's examples, and check that they use every instruction.)
func TestLanguageReferenceCoversTheLanguage(t *testing.T) {
	data, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	entry := func(what, word string) {
		t.Helper()
		// An entry shows the word in code: `word`, or `word ...` at the start of a form.
		if !strings.Contains(page, "`"+word+"`") && !strings.Contains(page, "`"+word+" ") {
			t.Errorf("docs/language.md has no entry for the %s %q", what, word)
		}
	}
	// Register arithmetic has no keyword: its entries are its forms.
	arithmetic := map[Op]string{OpMov: "r = V", OpAdd: "r = V + V", OpSub: "r = V - V"}
	for op := Op(0); op < NumOps; op++ {
		if form, ok := arithmetic[op]; ok {
			entry("register arithmetic", form)
			continue
		}
		if _, res := resultOps[op.String()]; res && op != OpRecv {
			entry("instruction", "r = "+op.String()) // r = load LOC: the result comes first
			continue
		}
		entry("instruction", op.String())
	}
	for _, f := range flavorNames {
		entry("window flavor", f)
	}
	for k := range windowKeys {
		if !strings.Contains(page, "`"+k+"=") {
			t.Errorf("docs/language.md has no entry for the window key %q (written `%s=...`)", k, k)
		}
	}
	named := func(what, word string) {
		t.Helper()
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(word) + `\b`).MatchString(page) {
			t.Errorf("docs/language.md does not name the %s %q", what, word)
		}
	}
	for _, ty := range typeNames[1:] {
		named("type", ty)
	}
	for _, op := range accOpNames[1:] {
		named("accumulate op", op)
	}
	for _, a := range assertNames {
		named("assertion", a)
	}
	for _, q := range quantNames {
		entry("final condition", q)
	}
	for _, w := range []string{"locations", "filter", "expect", "null", "repeat", "until"} {
		entry("keyword", w)
	}
}
