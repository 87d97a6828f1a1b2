//go:build !cgo

package main

// startFloor without cgo (make build): measured, the runtime dies before main at
// 700 MB and starts at 800 MB; 1 GiB leaves room for threads and a small search.
const startFloor = 1 << 30

const buildKind = "the CGO_ENABLED=0 build"
