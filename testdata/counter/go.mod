module example.com/counter

go 1.22
