def record_search(history, query, limit=10):
    """Adds a search to the history: newest first, unique ignoring case, at most `limit` kept."""
    query = query.strip()
    if not query:
        return list(history)
    result = [q for q in history if q.lower() != query.lower()]
    result.append(query)
    del result[limit:]
    return result
