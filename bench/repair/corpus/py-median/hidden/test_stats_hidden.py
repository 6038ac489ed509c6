from stats import median


def test_tuples_and_ranges():
    assert median((5, 1, 9)) == 5
    assert median(range(10)) == 4.5


def test_input_untouched():
    data = [3, 1, 2]
    assert median(data) == 2
    assert data == [3, 1, 2]


def test_single_and_duplicates():
    assert median([7]) == 7
    assert median([1, 1, 1, 5]) == 1
    assert median([-3, -1]) == -2
