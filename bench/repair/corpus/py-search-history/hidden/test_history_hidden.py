from history import record_search


def test_repeat_moves_to_front():
    assert record_search(["pasta", "pizza", "salad"], "PIZZA ") == ["PIZZA", "pasta", "salad"]


def test_limit():
    assert record_search(["a", "b", "c"], "d", limit=3) == ["d", "a", "b"]
    assert record_search(["a", "b"], "c", limit=1) == ["c"]


def test_input_untouched():
    history = ["a", "b"]
    record_search(history, "c")
    assert history == ["a", "b"]
