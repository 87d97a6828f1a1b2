//go:build !linux

package main

// hugeHeap does nothing where transparent huge pages are not known.
func hugeHeap() {}
