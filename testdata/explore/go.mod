module example.com/explore

go 1.22
