module example.com/mixeddep

go 1.22
