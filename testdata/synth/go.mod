module example.com/synth

go 1.22
