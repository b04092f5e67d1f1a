module example.com/locks

go 1.22
