import pytest
from bill import split_bill


def test_splits():
    assert split_bill(500, 1) == [500]
    assert split_bill(0, 3) == [0, 0, 0]
    assert split_bill(5, 4) == [2, 2, 1, 0]
    assert split_bill(1001, 2) == [501, 500]
    assert split_bill(7, 7) == [1] * 7
    assert sum(split_bill(12345, 11)) == 12345
    with pytest.raises(ValueError):
        split_bill(100, 0)
