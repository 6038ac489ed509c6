from normalise import normalise_scores


def test_scaling():
    assert normalise_scores([10, 20, 15, 40]) == [0.0, 0.3333, 0.1667, 1.0]
    assert normalise_scores([-2, 2]) == [0.0, 1.0]
    assert normalise_scores([7]) == [0.5]
