// Transposes a rectangular matrix given as an array of rows.
function transpose(matrix) {
  if (matrix.length === 0) return [];
  const rows = matrix.length;
  const cols = matrix[0].length;
  for (const row of matrix) {
    if (row.length !== cols) throw new Error('ragged matrix');
  }
  const out = [];
  for (let c = 0; c < cols; c++) {
    const line = new Array(rows);
    for (let r = 0; r < rows; r++) line[r] = matrix[c][r];
    out.push(line);
  }
  return out;
}

module.exports = { transpose };
