package broken

func f() int { return "not an int" }
