module example.com/spin

go 1.22
