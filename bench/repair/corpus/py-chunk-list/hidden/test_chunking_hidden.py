import pytest
from chunking import chunk


def test_chunks():
    assert chunk([1], 5) == [[1]]
    assert chunk([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]
    assert chunk(list(range(7)), 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert chunk(list(range(6)), 3) == [[0, 1, 2], [3, 4, 5]]
    assert chunk(["x", "y"], 2) == [["x", "y"]]


def test_bad_size():
    with pytest.raises(ValueError):
        chunk([1], 0)
