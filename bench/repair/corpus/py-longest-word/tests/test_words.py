from words import longest_word


def test_no_words():
    assert longest_word("123 !!") == ""


def test_longest():
    assert longest_word("a quick fox") == "quick"


def test_first_on_ties():
    assert longest_word("cat dog") == "cat"
