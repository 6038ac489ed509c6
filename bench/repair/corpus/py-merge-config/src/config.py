def merge_config(defaults, overrides):
    """Merges settings: override values win, nested dicts merge recursively, None in overrides removes the key."""
    merged = dict(defaults)
    for key, value in overrides.items():
        if value is None:
            merged.pop(key, None)
            continue
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = value
        else:
            merged[key] = merge_config(merged[key], value)
    return merged
