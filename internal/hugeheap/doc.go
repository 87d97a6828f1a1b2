// Package hugeheap asks Linux for transparent huge pages under the first part of
// the Go heap, for the commands that fault much of it in (see Advise).
package hugeheap
