// Shortens text to at most `max` characters with an ellipsis, cutting at a space when there is one.
function truncate(text, max) {
  if (text.length <= max) return text;
  if (max < 1) return '';
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  const body = space > 0 ? cut.slice(0, space) : cut;
  return body.replace(/[\s,.;:]+$/, '') + '\u2026';
}

module.exports = { truncate };
