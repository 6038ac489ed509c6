// Compares dotted version strings numerically ('1.10' > '1.9'); missing parts count as 0. Returns -1, 0 or 1.
function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  const n = Math.max(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x !== y) {
      return x < y ? 1 : -1;
    }
  }
  return 0;
}

module.exports = { compareVersions };
