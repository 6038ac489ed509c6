// Normalises a URL path for route lookup: one leading slash, no trailing slash, no empty segments, lower case.
function normalizeRoute(path) {
  let p = path.trim();
  if (!p.startsWith('/')) p = '/' + p;
  p = p.replace(/\/{2,}/g, '/');
  while (p.length > 1 && p.startsWith('/')) {
    p = p.slice(0, -1);
  }
  return p.toLowerCase();
}

module.exports = { normalizeRoute };
