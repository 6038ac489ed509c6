from config import merge_config


def test_nested():
    defaults = {"editor": {"tab": 4, "wrap": False}, "theme": "light"}
    merged = merge_config(defaults, {"editor": {"wrap": True}, "theme": "dark"})
    assert merged == {"editor": {"tab": 4, "wrap": True}, "theme": "dark"}
    assert defaults == {"editor": {"tab": 4, "wrap": False}, "theme": "light"}


def test_dict_replaces_scalar_and_back():
    assert merge_config({"a": 1}, {"a": {"x": 1}}) == {"a": {"x": 1}}
    assert merge_config({"a": {"x": 1}}, {"a": 5}) == {"a": 5}
    assert merge_config({"a": {"x": {"y": 1, "z": 2}}}, {"a": {"x": {"z": None}}}) == {"a": {"x": {"y": 1}}}
