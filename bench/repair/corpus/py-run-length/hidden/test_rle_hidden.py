from rle import compress_runs


def test_encoding():
    assert compress_runs("aaabccdddd") == "a3b1c2d4"
    assert compress_runs("abc") == "a1b1c1"
    assert compress_runs("zzzz") == "z4"
    assert compress_runs("abba") == "a1b2a1"
