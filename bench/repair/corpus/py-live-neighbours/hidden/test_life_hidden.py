from life import live_neighbours


def test_rectangular_grids():
    wide = [[1, 1, 1, 1], [0, 0, 0, 1]]
    assert live_neighbours(wide, 1, 3) == 2
    assert live_neighbours(wide, 0, 0) == 1
    assert live_neighbours(wide, 1, 0) == 2
    tall = [[1, 0], [0, 0], [1, 1], [0, 1]]
    assert live_neighbours(tall, 3, 0) == 3
    assert live_neighbours(tall, 1, 1) == 3
