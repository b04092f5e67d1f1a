module example.com/races

go 1.22
