module example.com/lines

go 1.22
