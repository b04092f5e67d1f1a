module example.com/controlled

go 1.22
