module kernels

go 1.22
