package bank_test

import (
	"testing"

	"example.com/selectmod/bank"
)

func TestExternalTransfer(t *testing.T) {
	var a, b bank.Account
	bank.Transfer(&a, &b, 1)
}
