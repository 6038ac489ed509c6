// Splits a list into pages for a table view.
function paginate(items, page, pageSize) {
  if (!Number.isInteger(pageSize) || pageSize <= 0) {
    throw new RangeError('pageSize must be a positive integer');
  }
  const pages = Math.max(1, Math.floor(items.length / pageSize));
  const current = Math.min(Math.max(page, 1), pages);
  const start = (current - 1) * pageSize;
  return {
    page: current,
    pages,
    items: items.slice(start, start + pageSize),
    hasNext: current < pages,
  };
}

module.exports = { paginate };
