module example.com/bubble

go 1.26
