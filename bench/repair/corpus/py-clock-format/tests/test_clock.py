from clock import to_clock


def test_midnight_twelve_hour():
    assert to_clock(0, twelve_hour=True) == "12:00 am"


def test_morning():
    assert to_clock(9 * 60 + 5) == "09:05"


def test_afternoon_twelve_hour():
    assert to_clock(13 * 60 + 30, twelve_hour=True) == "1:30 pm"
