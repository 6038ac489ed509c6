import pytest
from tree import path_to


def test_paths():
    parents = {"/": None, "home": "/", "me": "home", "etc": "/"}
    assert path_to(parents, "me") == ["/", "home", "me"]
    assert path_to(parents, "etc") == ["/", "etc"]
    assert path_to(parents, "orphan") == ["orphan"]


def test_cycle():
    with pytest.raises(ValueError):
        path_to({"a": "b", "b": "a"}, "a")
