from tree import path_to


def test_root_alone():
    assert path_to({"root": None}, "root") == ["root"]


def test_chain():
    parents = {"root": None, "src": "root", "core": "src"}
    assert path_to(parents, "core") == ["root", "src", "core"]
