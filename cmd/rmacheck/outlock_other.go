//go:build !unix

package main

// lockFolder is a no-op where flock is missing: concurrent report runs on one --out
// may there mix their files.
func lockFolder(string) (unlock func(), err error) { return func() {}, nil }
