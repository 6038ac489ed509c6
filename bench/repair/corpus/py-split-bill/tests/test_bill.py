from bill import split_bill


def test_even_split():
    assert split_bill(1000, 4) == [250, 250, 250, 250]


def test_uneven_split():
    assert split_bill(1000, 3) == [334, 334, 332]
