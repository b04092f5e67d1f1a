module example.com/paper

go 1.22
