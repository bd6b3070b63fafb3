module stealcheck.example/go-recorder

go 1.19
