from rle import compress_runs


def test_empty():
    assert compress_runs("") == ""


def test_single():
    assert compress_runs("a") == "a1"


def test_runs():
    assert compress_runs("aab") == "a2b1"
