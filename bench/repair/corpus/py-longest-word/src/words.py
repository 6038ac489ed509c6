import re


def longest_word(text):
    """The longest word (letters and apostrophes) in text, the first one on ties; '' when there is none."""
    best = ""
    for word in re.findall(r"[A-Za-z']+", text):
        word = word.strip("'")
        if not word:
            continue
        if len(word) >= len(best):
            best = word
    return best
