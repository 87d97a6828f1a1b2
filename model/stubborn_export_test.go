package model

// Hooks for the external tests of the stubborn sets (stubborn_test.go).

// StubbornInScope reports whether the program is in the stubborn sets' scope.
func StubbornInScope(p *Program) bool { return p.stub != nil }

// StubbornDependent reports whether instruction i of process r is dependent on
// instruction j of process q (for q == r: can be enabled with it and does not
// commute), for the values (data) or as a candidate pair of the concurrency checks.
func StubbornDependent(p *Program, q, j, r, i int) (data, pair bool) {
	return p.stub.dep[q][j][r]&(1<<uint(i)) != 0, p.stub.pair[q][j][r]&(1<<uint(i)) != 0
}

// StubbornSteps are the steps the stubborn set of s takes, nil when it takes none.
func StubbornSteps(p *Program, s State) []Step {
	var out []Step
	p.stubbornSuccessor(s, make(State, len(s)), nil, func(st Step, _ State) { out = append(out, st) })
	return out
}
