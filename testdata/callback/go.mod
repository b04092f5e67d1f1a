module example.com/callback

go 1.22
