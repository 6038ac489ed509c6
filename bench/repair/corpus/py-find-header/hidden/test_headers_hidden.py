from headers import find_header


def test_headers():
    lines = ["Set-Cookie: one=1", "X-Trace: t1", "set-cookie: two=2", "", "Set-Cookie: body"]
    assert find_header(lines, "Set-Cookie") == "one=1"
    assert find_header(lines, "x-trace") == "t1"
    assert find_header(["", "Host: late"], "host") is None
    assert find_header(["Time: 12:30:00"], "time") == "12:30:00"
    assert find_header(["NoColon", "Host:  spaced  "], "host") == "spaced"
