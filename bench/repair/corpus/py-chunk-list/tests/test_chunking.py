from chunking import chunk


def test_even_split():
    assert chunk([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]


def test_nothing_to_split():
    assert chunk([], 3) == []


def test_single_items():
    assert chunk(["a", "b", "c"], 1) == [["a"], ["b"], ["c"]]
