// Splits text into lines without trailing whitespace, dropping the blank lines at the end.
function cleanLines(text) {
  const lines = text.split(/\r?\n/);
  let end = lines.length;
  while (lines[end - 1].trim() === '') end--;
  const out = [];
  for (let i = 0; i < end; i++) out.push(lines[i].replace(/\s+$/, ''));
  return out;
}

module.exports = { cleanLines };
