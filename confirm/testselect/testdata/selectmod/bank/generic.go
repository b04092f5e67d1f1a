package bank

// Total sums the balances.
func Total[T ~int](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}
