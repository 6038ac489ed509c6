def weighted_mean(values, weights):
    """The mean of values weighted by non-negative weights."""
    if len(values) != len(weights):
        raise ValueError("values and weights differ in length")
    total = 0.0
    total_weight = 0.0
    for value, weight in zip(values, weights):
        if weight < 0:
            raise ValueError("negative weight")
        total += value * weight
        total_weight += value
    if total_weight == 0:
        raise ZeroDivisionError("the weights sum to zero")
    return total / total_weight
