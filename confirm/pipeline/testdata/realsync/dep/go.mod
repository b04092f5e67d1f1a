module example.com/realsyncdep

go 1.22
