// Index of the first row whose `status` matches, scanning from `from`; -1 when none does.
function findFirstWithStatus(rows, status, from = 0) {
  let found = -1;
  for (let i = Math.max(0, from); i < rows.length; i++) {
    const row = rows[i];
    if (!row || row.status !== status) continue;
    found = i;
  }
  return found;
}

module.exports = { findFirstWithStatus };
