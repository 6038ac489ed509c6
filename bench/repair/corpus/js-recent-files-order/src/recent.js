// The "recently opened" list of an editor: newest first, no duplicates, at most `limit` entries.
function touchRecent(list, file, limit = 5) {
  if (!file) return list.slice();
  const key = file.replace(/\\/g, '/');
  const next = [];
  for (const entry of list) {
    if (entry !== key) next.push(entry);
  }
  next.push(key);
  if (next.length > limit) next.length = limit;
  return next;
}

module.exports = { touchRecent };
