def running_balance(opening, transactions):
    """The balance after each (kind, amount) transaction, kind 'deposit' or 'withdrawal'; overdrafts are refused."""
    balance = opening
    out = []
    for kind, amount in transactions:
        if amount <= 0:
            raise ValueError("amounts must be positive")
        if kind == "deposit":
            balance += amount
        elif kind == "withdrawal":
            if amount > balance:
                raise ValueError("overdraft")
            balance += amount
        else:
            raise ValueError(f"unknown kind {kind!r}")
        out.append(balance)
    return out
