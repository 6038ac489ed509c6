from scores import best_attempts


def test_best():
    attempts = [("ann", 3), ("bob", None), ("bob", -1), ("ann", 0), ("cy", 0), ("bob", 2), ("ann", 11), ("bob", 7)]
    assert best_attempts(attempts) == {"ann": 11, "cy": 0, "bob": 7}
    assert best_attempts([("x", 5), ("x", 5)]) == {"x": 5}
    assert best_attempts([("x", None)]) == {}
