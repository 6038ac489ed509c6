from words import longest_word


def test_words():
    assert longest_word("'tis the season, isn't it?") == "season"
    assert longest_word("one two six ten") == "one"
    assert longest_word("it's") == "it's"
    assert longest_word("ab cd ef gh") == "ab"
    assert longest_word("'' x") == "x"
