// Decides whether a mutant still parses: the whole file is re-parsed (incrementally) and its syntax errors counted.
import type { Node, Parser, Point, Tree } from 'web-tree-sitter';

/** ERROR and MISSING nodes in the tree; only subtrees that report an error are entered, so a clean tree costs O(1). */
export function countSyntaxErrors(root: Node): number {
  if (!root.hasError) return 0;
  let count = 0;
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) count++;
      // An ERROR node's own children are the tokens it swallowed: counting them too would make one slip look like many.
      if (!node.isError && node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return count;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Row and column (UTF-16 code units, as web-tree-sitter reports them for string input) of an offset. */
function pointAt(lineStarts: readonly number[], offset: number): Point {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { row: lo, column: offset - lineStarts[lo] };
}

/** Offsets where each line starts; index i is line i + 1. */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line of an offset. */
export function lineAt(lineStarts: readonly number[], offset: number): number {
  return pointAt(lineStarts, offset).row + 1;
}

/**
 * Counts the syntax errors of `original` with [start, end) replaced by `text`. Reuses the original tree
 * (tree-sitter's incremental parsing), which makes a check about ten times cheaper than a fresh parse.
 */
export function errorsAfterEdit(
  parser: Parser,
  tree: Tree,
  original: string,
  lineStarts: readonly number[],
  edit: { readonly start: number; readonly end: number; readonly text: string },
): number {
  const mutated = original.slice(0, edit.start) + edit.text + original.slice(edit.end);
  const startPosition = pointAt(lineStarts, edit.start);
  const newLines = edit.text.split('\n');
  const newEndPosition =
    newLines.length === 1
      ? { row: startPosition.row, column: startPosition.column + edit.text.length }
      : { row: startPosition.row + newLines.length - 1, column: newLines[newLines.length - 1].length };
  const old = tree.copy();
  let reparsed: Tree | null = null;
  try {
    old.edit({
      startIndex: edit.start,
      oldEndIndex: edit.end,
      newEndIndex: edit.start + edit.text.length,
      startPosition,
      oldEndPosition: pointAt(lineStarts, edit.end),
      newEndPosition,
    });
    reparsed = parser.parse(mutated, old);
    if (!reparsed) throw new Error('tree-sitter returned no tree');
    return countSyntaxErrors(reparsed.rootNode);
  } finally {
    reparsed?.delete();
    old.delete();
  }
}
