package locks

func sum(xs ...int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	return total
}

func useSum() int {
	return sum(
		1,
		2,
	)
}
