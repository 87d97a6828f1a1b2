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
