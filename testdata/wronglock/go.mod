module example.com/wronglock

go 1.22
