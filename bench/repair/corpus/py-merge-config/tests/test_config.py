from config import merge_config


def test_no_overrides():
    assert merge_config({"a": 1}, {}) == {"a": 1}


def test_none_removes():
    assert merge_config({"a": 1, "b": 2}, {"a": None}) == {"b": 2}


def test_flat_override():
    assert merge_config({"a": 1}, {"a": 2, "b": 3}) == {"a": 2, "b": 3}
