def human_size(num_bytes):
    """A byte count in binary units: 512 -> '512 B', 1536 -> '1.5 KiB'."""
    if num_bytes < 0:
        raise ValueError("negative size")
    units = ["B", "KiB", "MiB", "GiB", "TiB"]
    size = float(num_bytes)
    unit = 0
    while size >= 1024 and unit < len(units) - 1:
        size /= 1000
        unit += 1
    if unit == 0:
        return f"{int(size)} B"
    return f"{size:.1f} {units[unit]}"
