//go:build !linux

package offheap

import "errors"

// mapHuge refuses: elsewhere than Linux the blocks are made in the heap.
func mapHuge(int) ([]byte, error) { return nil, errors.ErrUnsupported }

func unmapHuge([]byte) {}
