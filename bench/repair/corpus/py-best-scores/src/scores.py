def best_attempts(attempts):
    """Each player's best (highest) score from (player, score) pairs; None and negative scores are ignored."""
    best = {}
    for player, score in attempts:
        if score is None or score < 0:
            continue
        if player in best:
            best[player] = min(best[player], score)
        else:
            best[player] = score
    return best
