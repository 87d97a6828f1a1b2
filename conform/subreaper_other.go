//go:build unix && !linux

package conform

func prSetChildSubreaper() {}
