def find_header(lines, name):
    """The value of the first 'Name: value' header with that name (any case) before the blank line; else None."""
    wanted = name.lower()
    value = None
    for line in lines:
        if not line.strip():
            break
        key, sep, rest = line.partition(":")
        if sep and key.strip().lower() == wanted:
            value = rest.strip()
    return value
