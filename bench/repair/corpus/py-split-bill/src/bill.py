import math


def split_bill(total_cents, people):
    """Splits a bill: everyone pays the rounded-up share, the last person pays what is left."""
    if people < 1:
        raise ValueError("need at least one person")
    share = math.floor(total_cents / people)
    shares = []
    remaining = total_cents
    for _ in range(people - 1):
        pay = min(share, remaining)
        shares.append(pay)
        remaining -= pay
    shares.append(remaining)
    return shares
