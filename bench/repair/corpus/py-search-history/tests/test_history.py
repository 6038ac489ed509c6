from history import record_search


def test_blank_query_changes_nothing():
    assert record_search(["a"], "   ") == ["a"]


def test_first_search():
    assert record_search([], "pasta") == ["pasta"]


def test_newest_first():
    assert record_search(["pasta", "pizza"], "salad") == ["salad", "pasta", "pizza"]
