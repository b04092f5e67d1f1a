module example.com/timing

go 1.22
