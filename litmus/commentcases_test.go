package litmus

import "testing"

// commentCases put comments in each place a line can have them; want is the exact
// canonical form (comments are kept: before their line, at its end, at the end of the file).
var commentCases = []struct {
	name, src, want string
}{
	{"lead", `# opens the file

# after a blank line
MPI c
# before the doc
"doc"
# before a meta line
Source=mpi-issues #553
# before the init block
{
  # before a window
  win W allocate size=1;
  (* before an alias *)
  x = W@1[0];
  # before a register init
  0:r0 = 1;
  # before the closing brace
}
# before the header row
 P0 | P1 ;
# before row 1
 fence W | fence W ;

 # after a blank line, before row 2
 store x r0 | ;
# before locations
locations [x];
# before the filter
filter (true)
# before the condition
exists (x=1)
# before an expect line
expect A=Never
`, `# opens the file

# after a blank line
MPI c
# before the doc
"doc"
# before a meta line
Source=mpi-issues #553
# before the init block
{
  # before a window
  win W allocate size=1;
  (* before an alias *)
  x = W@1[0];
  # before a register init
  0:r0 = 1;
  # before the closing brace
}
# before the header row
 P0         | P1      ;
# before row 1
 fence W    | fence W ;

# after a blank line, before row 2
 store x r0 |         ;
# before locations
locations [x];
# before the filter
filter (true)
# before the condition
exists (x=1)
# before an expect line
expect A=Never
`},
	{"trail", `MPI c # header
"doc" (* doc *)
{ # open
  win W allocate size=1; # window
  x = W@1[0]; y = W@0[0]; # after the line's last statement
} # close
 P0 | P1 ; # header row
 fence W | fence W ;# row 1
 store x 1 (* inside a row *) | ;
locations [x]; # locations
filter (true) # filter
exists (x=1) # condition
expect A=Never # expect
expect hw=tso: A=Never (* expect *) # two on a line
`, `MPI c # header
"doc" (* doc *)
{ # open
  win W allocate size=1; # window
  x = W@1[0];
  y = W@0[0]; # after the line's last statement
} # close
 P0        | P1      ; # header row
 fence W   | fence W ; # row 1
 store x 1 |         ; (* inside a row *)
locations [x]; # locations
filter (true) # filter
exists (x=1) # condition
expect A=Never # expect
expect hw=tso: A=Never (* expect *) # two on a line
`},
	{"end", `MPI c
{ win W allocate size=1; }
 P0 ;
 fence W ;
exists (true)
expect A=Always
# Expected: Always.
# Why: nothing happens.

(* after a blank line *)
`, `MPI c
{
  win W allocate size=1;
}
 P0      ;
 fence W ;
exists (true)
expect A=Always
# Expected: Always.
# Why: nothing happens.

(* after a blank line *)
`},
	{"reorder", `MPI c
{
  0:r1 = 2; # register init, printed last
  W@0[0] = 1; # memory init
  win W allocate size=1; # window, printed first
}
 P0 ;
 r0 = r1 + 1 ;
exists (0:r0=3)
`, `MPI c
{
  win W allocate size=1; # window, printed first
  W@0[0] = 1; # memory init
  0:r1 = 2; # register init, printed last
}
 P0          ;
 r0 = r1 + 1 ;
exists (0:r0=3)
`},
	{"multiline", `MPI c (* a header
comment of two lines *)
{
  win W allocate size=1;
    (* indented
       as written *)
  x = W@0[0];
}
 P0 ;
 store x 1 ; (* after a row,
 on two lines *)
 fence W ; # then a second one (* on the same line *)
exists (x=1 /\
  # inside the condition
  x=1)
`, `MPI c
(* a header
comment of two lines *)
{
  win W allocate size=1;
  (* indented
       as written *)
  x = W@0[0];
}
 P0        ;
 store x 1 ;
(* after a row,
 on two lines *)
 fence W   ; # then a second one (* on the same line *)
exists (x=1 /\ x=1) # inside the condition
`},
	{"blanks", "MPI c   \r\n{ win W allocate size=1; }\r\n P0 ;\r\n fence W ; #  trailing blanks   \r\nexists (true)\r\n\r\n\r\n# end\r\n", `MPI c
{
  win W allocate size=1;
}
 P0      ;
 fence W ; #  trailing blanks
exists (true)

# end
`},
	{"inline lead", `MPI c
{ win W allocate size=1;
  (* leads x *) x = W@0[0]; }
 P0 ;
 (* leads the row *) store x 1 ;
exists (x=1)
`, `MPI c
{
  win W allocate size=1;
  (* leads x *)
  x = W@0[0];
}
 P0        ;
(* leads the row *)
 store x 1 ;
exists (x=1)
`},
}

func TestFormatComments(t *testing.T) {
	for _, c := range commentCases {
		t.Run(c.name, func(t *testing.T) {
			tst, err := Parse(c.name+".lit", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(Format(tst)); got != c.want {
				t.Errorf("Format:\n%s\nwant:\n%s", got, c.want)
			}
			checkComments(t, c.name+".lit", []byte(c.src))
			// Init order is normalized: round-trip from the canonical form.
			canon, err := Parse(c.name+".lit", Format(tst))
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, c.name+".lit", canon)
		})
	}
}
