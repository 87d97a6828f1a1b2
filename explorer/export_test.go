package explorer

// ParallelFrom makes a search expand with opt.Workers goroutines every level of at
// least n states, so that tests reach the parallel code with small programs.
func ParallelFrom(opt Options, n int) Options {
	opt.parallelFrom = n
	return opt
}

// NoQuotient keeps every value in a reduced search: the live-variable quotient off.
func NoQuotient(opt Options) Options {
	opt.noQuotient = true
	return opt
}

// FlatStates stores every state whole (no collapse compression), for measuring it.
func FlatStates(opt Options) Options {
	opt.flatStates = true
	return opt
}

// CompactAt stores the states by their parts from n states on (compact.go).
func CompactAt(opt Options, n int) Options {
	opt.compactAt = n
	return opt
}
