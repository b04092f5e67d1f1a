module example.com/selflock

go 1.22
