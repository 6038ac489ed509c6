def live_neighbours(grid, row, col):
    """Counts the live (1) cells around grid[row][col] in a rectangular grid of 0/1 rows."""
    rows = len(grid)
    cols = len(grid[0]) if rows else 0
    count = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            r, c = row + dr, col + dc
            if 0 <= r < rows and 0 <= c < cols:
                count += grid[c][r]
    return count
