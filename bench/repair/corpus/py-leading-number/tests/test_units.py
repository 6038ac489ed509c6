from units import leading_number


def test_number_with_unit():
    assert leading_number("42px") == (42, "px")


def test_no_number():
    assert leading_number("auto") == (None, "auto")


def test_number_alone():
    assert leading_number("7") == (7, "")
