from dataclasses import dataclass


@dataclass
class Booking:
    room: str
    start: int
    end: int


def first_free_slot(bookings, room, length, day_start=8 * 60, day_end=18 * 60):
    """The earliest start (minutes after midnight) of `length` free minutes in `room` that day, or None."""
    cursor = day_start
    for b in sorted((b for b in bookings if b.room == room), key=lambda b: b.start):
        if b.start - cursor >= length:
            break
        cursor = max(cursor, b.start)
    if cursor + length <= day_end:
        return cursor
    return None
