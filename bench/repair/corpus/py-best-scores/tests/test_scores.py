from scores import best_attempts


def test_no_attempts():
    assert best_attempts([]) == {}


def test_one_attempt_each():
    assert best_attempts([("ann", 3), ("bob", 5)]) == {"ann": 3, "bob": 5}


def test_best_of_several():
    assert best_attempts([("ann", 3), ("ann", 9), ("ann", 4)]) == {"ann": 9}
