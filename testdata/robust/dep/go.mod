module example.com/robustdep

go 1.22
