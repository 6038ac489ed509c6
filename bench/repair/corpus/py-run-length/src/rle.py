def compress_runs(text):
    """Run-length encodes text: 'aaab' -> 'a3b1'."""
    if not text:
        return ""
    out = []
    current = text[0]
    count = 1
    for ch in text[1:]:
        if ch != current:
            count += 1
        else:
            out.append(f"{current}{count}")
            current = ch
            count = 1
    out.append(f"{current}{count}")
    return "".join(out)
