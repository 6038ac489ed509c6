def max_window_sum(values, k):
    """The largest sum of k consecutive values (1 <= k <= len(values))."""
    if k < 1 or k >= len(values):
        raise ValueError("the window must fit the values")
    current = sum(values[:k])
    best = current
    for i in range(k, len(values)):
        current += values[i] - values[i - k]
        best = max(best, current)
    return best
