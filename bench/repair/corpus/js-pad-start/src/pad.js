// Left-pads a value to `width` characters with a fill string, repeated and cut as needed (e.g. '0007').
function padStart(value, width, fill = ' ') {
  let s = String(value);
  if (fill.length === 0) return s;
  let pad = '';
  while (pad.length + s.length < width) {
    pad += fill;
  }
  pad = pad.slice(0, Math.max(0, width - s.length));
  s = s + pad;
  return s;
}

module.exports = { padStart };
