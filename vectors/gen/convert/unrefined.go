//go:build !refinements

package main

// refinedCases is empty without the refinements tag: go-cty before 1.13 has no
// refinements (see refined.go).
func refinedCases() []convCase { return nil }
