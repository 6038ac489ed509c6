from discover import is_test_module


def test_not_python():
    assert is_test_module("README.md") is False


def test_prefixed():
    assert is_test_module("tests/test_parser.py") is True


def test_suffixed():
    assert is_test_module("pkg/parser_test.py") is True
