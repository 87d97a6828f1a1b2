//go:build unix && !linux

package supervise

func prSetChildSubreaper() {}
