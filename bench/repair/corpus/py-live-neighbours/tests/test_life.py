from life import live_neighbours


def test_empty_neighbourhood():
    assert live_neighbours([[0, 0], [0, 0]], 0, 0) == 0


def test_symmetric_grid():
    grid = [[1, 0, 1], [0, 0, 0], [1, 0, 1]]
    assert live_neighbours(grid, 1, 1) == 4


def test_asymmetric_grid():
    grid = [[0, 1, 1], [0, 0, 0], [0, 0, 0]]
    assert live_neighbours(grid, 1, 2) == 2
