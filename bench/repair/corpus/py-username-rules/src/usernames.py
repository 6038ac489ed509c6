def is_valid_username(name):
    """3-16 ASCII letters, digits, '_' or '-', starting with a letter and not ending with '_' or '-'."""
    if not 3 <= len(name) <= 16:
        return False
    if not name[0].isalpha() and not name[0].isascii():
        return False
    for ch in name:
        if not (ch.isascii() and (ch.isalnum() or ch in "_-")):
            return False
    return name[-1] not in "-_"
