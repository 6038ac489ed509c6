// Removes one entry of a to-do list by position (negative counts from the end) without changing the original.
function removeAt(list, index) {
  if (!Number.isInteger(index)) throw new TypeError('index must be an integer');
  const at = index < 0 ? list.length + index : index;
  if (at < 0 || at >= list.length) {
    return { list: list.slice(), removed: undefined };
  }
  const copy = list.slice();
  const [removed] = copy.slice(at, 1);
  return { list: copy, removed };
}

module.exports = { removeAt };
