from units import leading_number


def test_numbers():
    assert leading_number("-5em") == (-5, "em")
    assert leading_number("+12") == (12, "")
    assert leading_number("") == (None, "")
    assert leading_number("-") == (None, "-")
    assert leading_number("007x") == (7, "x")
    assert leading_number("12 34") == (12, " 34")
