from rooms import Booking, first_free_slot


def test_slots():
    day = [Booking("blue", 480, 540), Booking("blue", 560, 700), Booking("red", 700, 900), Booking("blue", 720, 1080)]
    assert first_free_slot(day, "blue", 20) == 540
    assert first_free_slot(day, "blue", 30) is None
    assert first_free_slot(day, "blue", 15) == 540
    assert first_free_slot(day, "red", 200) == 480
    assert first_free_slot([Booking("g", 500, 1000), Booking("g", 600, 700)], "g", 60) == 1000
    assert first_free_slot([Booking("g", 480, 1080)], "g", 1) is None
