package explorer

// ParallelFrom makes a search expand with opt.Workers goroutines every level of at
// least n states, so that tests reach the parallel code with small programs.
func ParallelFrom(opt Options, n int) Options {
	opt.parallelFrom = n
	return opt
}
