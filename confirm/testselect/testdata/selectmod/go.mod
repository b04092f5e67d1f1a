module example.com/selectmod

go 1.22
