// The extension of a file name, lower-cased and without the dot; '' when there is none.
function extensionOf(path) {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const name = path.slice(slash + 1);
  const dot = name.indexOf('.');
  // A leading dot marks a hidden file (.bashrc), not an extension; a trailing one ends no extension.
  if (dot <= 0 || dot === name.length - 1) return '';
  return name.slice(dot + 1).toLowerCase();
}

module.exports = { extensionOf };
