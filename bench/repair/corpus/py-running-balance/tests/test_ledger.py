from ledger import running_balance


def test_deposits():
    assert running_balance(10, [("deposit", 5), ("deposit", 1)]) == [15, 16]


def test_withdrawal():
    assert running_balance(10, [("withdrawal", 4)]) == [6]
