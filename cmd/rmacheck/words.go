package main

import (
	"fmt"
	"strings"
)

// splitWords splits a command line as a POSIX shell splits words, without a shell:
// blanks separate words; 'single quotes' keep everything; "double quotes" keep
// everything but \" \\ \$ \`; a backslash outside quotes keeps the next character.
// Nothing is expanded. --launcher and --mpiexec-args take their words so, where
// strings.Fields could not pass an argument with a space ('--export=A=1 B=2').
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("%q: a single quote is not closed", s)
			}
			w.WriteString(s[i+1 : i+1+end])
			i, inWord = i+1+end, true
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && strings.IndexByte("\"\\$`", s[j+1]) >= 0 {
					j++
				}
				w.WriteByte(s[j])
			}
			if j == len(s) {
				return nil, fmt.Errorf("%q: a double quote is not closed", s)
			}
			i, inWord = j, true
		case c == '\\':
			if i+1 == len(s) {
				return nil, fmt.Errorf("%q: a backslash ends the line", s)
			}
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
