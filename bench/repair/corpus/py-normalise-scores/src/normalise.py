def rescale(x, low, high):
    return (x - low) / (high - low)


def normalise_scores(scores):
    """Scales scores to [0, 1] between the lowest and the highest; all 0.5 when every score is equal."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    if low == high:
        return [0.5 for _ in scores]
    out = []
    for s in scores:
        out.append(round(rescale(s, high, low), 4))
    return out
