//go:build cgo

package main

// startFloor with cgo (pflag imports net): every thread also reserves a pthread stack
// and a malloc arena; measured, the cgo test binary died at 1.5 GB 4 times in 5 and
// started at 2 GiB 5 times in 5.
const startFloor = 2 << 30

const buildKind = "a cgo build; make build's CGO_ENABLED=0 binary needs 1 GiB"
