from discover import is_test_module


def test_names():
    assert is_test_module("test_a.py") is True
    assert is_test_module("tests\\test_win.py") is True
    assert is_test_module("parser.py") is False
    assert is_test_module("test_data.json") is False
    assert is_test_module("test_x.pyc") is False
    assert is_test_module(".venv/lib/test_x.py") is False
    assert is_test_module("venv/test_x.py") is False
    assert is_test_module("a/.hidden/x_test.py") is False
    assert is_test_module("testing.py") is False
