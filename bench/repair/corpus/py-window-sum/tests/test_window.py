import pytest
from window import max_window_sum


def test_window_of_two():
    assert max_window_sum([1, 5, 2, 8], 2) == 10


def test_zero_window_is_refused():
    with pytest.raises(ValueError):
        max_window_sum([1, 2], 0)


def test_window_as_long_as_the_values():
    assert max_window_sum([1, 2, 3], 3) == 6
