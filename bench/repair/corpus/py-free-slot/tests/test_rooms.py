from rooms import Booking, first_free_slot


def test_empty_day():
    assert first_free_slot([], "blue", 60) == 480


def test_gap_before_first_booking():
    assert first_free_slot([Booking("blue", 600, 660)], "blue", 60) == 480


def test_after_a_morning_booking():
    assert first_free_slot([Booking("blue", 480, 540)], "blue", 60) == 540
