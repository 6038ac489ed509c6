from clock import to_clock


def test_times():
    assert to_clock(0) == "00:00"
    assert to_clock(1439) == "23:59"
    assert to_clock(1440 + 61) == "01:01"
    assert to_clock(-1) == "23:59"
    assert to_clock(12 * 60, twelve_hour=True) == "12:00 pm"
    assert to_clock(11 * 60 + 59, twelve_hour=True) == "11:59 am"
    assert to_clock(90.7) == "01:30"
