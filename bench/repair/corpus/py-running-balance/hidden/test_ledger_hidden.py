import pytest
from ledger import running_balance


def test_mixed():
    assert running_balance(0, [("deposit", 50), ("withdrawal", 20), ("withdrawal", 30), ("deposit", 1)]) == [50, 30, 0, 1]


def test_refusals():
    with pytest.raises(ValueError, match="overdraft"):
        running_balance(5, [("withdrawal", 3), ("withdrawal", 3)])
    with pytest.raises(ValueError):
        running_balance(5, [("refund", 1)])
    with pytest.raises(ValueError):
        running_balance(5, [("deposit", 0)])
