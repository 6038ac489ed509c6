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

/** Size of the pieces handed to the parser; see `mutatedReader`. */
const chunk = 64;

/**
 * Reads the mutated text in small pieces without building it. web-tree-sitter's own string input hands the whole
 * rest of the file to WebAssembly on every read, which made checking hundreds of mutants of a long file slow;
 * an incremental re-parse reads only around the edit.
 */
function mutatedReader(original: string, edit: { readonly start: number; readonly end: number; readonly text: string }) {
  const newEnd = edit.start + edit.text.length;
  return (index: number): string => {
    if (index < edit.start) return original.slice(index, Math.min(edit.start, index + chunk));
    if (index < newEnd) return edit.text.slice(index - edit.start);
    const from = index - newEnd + edit.end;
    return original.slice(from, from + chunk);
  };
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
    reparsed = parser.parse(mutatedReader(original, edit), old);
    if (!reparsed) throw new Error('tree-sitter returned no tree');
    return countSyntaxErrors(reparsed.rootNode);
  } finally {
    reparsed?.delete();
    old.delete();
  }
}
