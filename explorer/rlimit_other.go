//go:build !unix

package explorer

// rlimitAS: no address-space limit is known on this system.
func rlimitAS() int64 { return 0 }
