module example.com/cihot

go 1.22
