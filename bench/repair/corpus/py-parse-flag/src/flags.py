def parse_flag(value, default=False):
    """Reads a yes/no setting: true/yes/on/1 or false/no/off/0 (any case); None or blank gives the default."""
    if value is None:
        return default
    text = str(value).strip().lower()
    if text == "":
        return default
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return True
    raise ValueError(f"not a yes/no value: {value!r}")
