module example.com/hbshapes

go 1.22
