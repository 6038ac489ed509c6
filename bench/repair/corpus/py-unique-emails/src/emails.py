def unique_emails(addresses):
    """Addresses without duplicates (ignoring case and surrounding spaces), first spelling kept, in order."""
    seen = set()
    out = []
    for raw in addresses:
        address = raw.strip()
        if not address:
            continue
        key = address.lower()
        if key in seen:
            continue
        out.append(address)
    return out
