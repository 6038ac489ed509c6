from normalise import normalise_scores


def test_no_scores():
    assert normalise_scores([]) == []


def test_all_equal():
    assert normalise_scores([3, 3]) == [0.5, 0.5]


def test_spread():
    assert normalise_scores([0, 5, 10]) == [0.0, 0.5, 1.0]
