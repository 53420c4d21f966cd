module diffnoise

go 1.15
