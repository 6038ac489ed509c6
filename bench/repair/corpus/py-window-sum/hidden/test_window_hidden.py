import pytest
from window import max_window_sum


def test_windows():
    assert max_window_sum([4], 1) == 4
    assert max_window_sum([-3, -1, -2], 1) == -1
    assert max_window_sum([2, -5, 4, 4, -1], 2) == 8
    assert max_window_sum([2, -5, 4, 4, -1], 5) == 4
    with pytest.raises(ValueError):
        max_window_sum([1, 2], 3)
    with pytest.raises(ValueError):
        max_window_sum([], 1)
