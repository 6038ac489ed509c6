import pytest
from weights import weighted_mean


def test_lengths_must_match():
    with pytest.raises(ValueError):
        weighted_mean([1, 2], [1])


def test_equal_weights():
    assert weighted_mean([2, 2], [2, 2]) == 2


def test_uneven_weights():
    assert weighted_mean([10, 20], [1, 3]) == 17.5
