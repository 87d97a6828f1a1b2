package main

import (
	"github.com/spf13/pflag"

	"github.com/rmacheck/rmacheck/model"
)

// addABIFlag adds --abi, the ABI whose type alignments E-ALIGN checks, to a command.
func addABIFlag(fl *pflag.FlagSet, dst *string) {
	fl.StringVar(dst, "abi", model.X8664.Name, "ABI whose type alignments E-ALIGN checks: x86-64, aarch64, ppc64le or i386 (i386 aligns int64, double and long double to 4); expect lines describe x86-64 and are not checked under another")
}

// parseABI reads --abi.
func parseABI(name string) (model.ABI, error) {
	a, err := model.ParseABI(name)
	if err != nil {
		return a, usageErrorf("--abi: %v", err)
	}
	return a, nil
}
