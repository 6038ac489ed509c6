import pytest
from weights import weighted_mean


def test_means():
    assert weighted_mean([1, 2, 3], [0, 0, 1]) == 3
    assert weighted_mean([5, -5], [1, 1]) == 0
    assert weighted_mean([1, 3], [3, 1]) == 1.5
    assert weighted_mean([4.0], [0.5]) == 4.0
    with pytest.raises(ZeroDivisionError):
        weighted_mean([1, 2], [0, 0])
    with pytest.raises(ValueError):
        weighted_mean([1], [-1])
