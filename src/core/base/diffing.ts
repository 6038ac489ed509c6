// Unified diffs and change sizes of candidates, through jsdiff.
import { createTwoFilesPatch, diffChars, diffLines } from 'diff';

/** A unified diff of one file before and after, with a/ and b/ prefixes like git. */
export function unifiedDiff(relativePath: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${relativePath}`, `b/${relativePath}`, before, after, undefined, undefined, { context: 3 });
}

/** Lines added plus lines removed: the size the ranking prefers small. */
export function changeSize(before: string, after: string): number {
  return diffLines(before, after).reduce((sum, part) => sum + (part.added || part.removed ? part.count ?? 0 : 0), 0);
}

/** Characters added plus characters removed: breaks ties between candidates that change as many lines. */
export function changedCharacters(before: string, after: string): number {
  return diffChars(before, after).reduce((sum, part) => sum + (part.added || part.removed ? part.value.length : 0), 0);
}
