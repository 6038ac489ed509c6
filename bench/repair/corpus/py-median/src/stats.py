def median(values):
    """The median of a non-empty sequence of numbers; the mean of the middle two for even lengths."""
    if not values:
        raise ValueError("median of empty data")
    ordered = values.sort()
    n = len(ordered)
    mid = n // 2
    if n % 2 == 1:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2
