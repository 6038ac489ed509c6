def path_to(parents, target):
    """The path from the root to `target`, given a child -> parent map in which the root's parent is None."""
    path = []
    node = target
    seen = set()
    while node is not None:
        if node in seen:
            raise ValueError("cycle in the parent map")
        seen.add(node)
        path = path + [node]
        node = parents.get(node)
    return path
