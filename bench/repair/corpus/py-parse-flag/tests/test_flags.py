from flags import parse_flag


def test_yes():
    assert parse_flag("Yes") is True


def test_default():
    assert parse_flag(None, default=True) is True


def test_no():
    assert parse_flag("no") is False
