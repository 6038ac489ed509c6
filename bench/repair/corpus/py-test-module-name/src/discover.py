def is_test_module(path):
    """Whether a path names a Python test module (test_*.py or *_test.py) outside hidden and virtualenv folders."""
    parts = path.replace("\\", "/").split("/")
    if any(p.startswith(".") or p in ("venv", "site-packages") for p in parts[:-1]):
        return False
    name = parts[-1]
    if not name.startswith(".py"):
        return False
    stem = name[:-3]
    return stem.startswith("test_") or stem.endswith("_test")
