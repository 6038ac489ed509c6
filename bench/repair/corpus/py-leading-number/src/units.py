def leading_number(text):
    """The integer at the start of text and the rest: '42px' -> (42, 'px'); (None, text) when there is none."""
    i = 0
    sign = 1
    if text[:1] in ("-", "+"):
        sign = -1 if text[0] == "-" else 1
        i = 1
    start = i
    while text[i].isdigit():
        i += 1
    if i == start:
        return None, text
    return sign * int(text[start:i]), text[i:]
