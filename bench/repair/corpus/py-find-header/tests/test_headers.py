from headers import find_header


def test_absent():
    assert find_header(["Host: example.org"], "Accept") is None


def test_present():
    assert find_header(["Host: example.org", "Accept: */*"], "accept") == "*/*"


def test_first_of_repeated():
    assert find_header(["Via: a", "Via: b"], "via") == "a"
