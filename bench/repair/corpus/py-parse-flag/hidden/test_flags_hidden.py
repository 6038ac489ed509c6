import pytest
from flags import parse_flag


def test_values():
    assert parse_flag(" OFF ") is False
    assert parse_flag(0) is False
    assert parse_flag(1) is True
    assert parse_flag("false", default=True) is False
    assert parse_flag("", default=True) is True
    with pytest.raises(ValueError):
        parse_flag("maybe")
