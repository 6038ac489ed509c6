def to_clock(minutes, twelve_hour=False):
    """'HH:MM' for minutes since midnight (wrapping past a day), or 'h:MM am/pm' with twelve_hour."""
    m = int(minutes) % (24 * 60)
    hours = m / 60
    mins = m % 60
    if not twelve_hour:
        return f"{hours:02d}:{mins:02d}"
    suffix = "am" if hours < 12 else "pm"
    shown = hours % 12 or 12
    return f"{shown}:{mins:02d} {suffix}"
