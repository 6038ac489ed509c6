// Text helpers for selections: whole-line ranges, applying a replacement, and the language of a file.
import { extname } from 'node:path';
import { UserError } from './errors';

/**
 * The [start, end) offsets of lines a..b (1-based, inclusive): from the start of line a to the end of line b,
 * its line break excluded, so the break after line b is kept when the range is replaced.
 */
export function lineRangeToOffsets(text: string, first: number, last: number): { start: number; end: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  // A final line break does not begin another line.
  const lineCount = text.endsWith('\n') ? starts.length - 1 : starts.length;
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || first < 1) {
    throw new UserError(`lines ${first}-${last}: line numbers start at 1`);
  }
  if (last < first) throw new UserError(`lines ${first}-${last}: the range is reversed (write ${last}-${first})`);
  if (last > lineCount) throw new UserError(`lines ${first}-${last}: the file has only ${lineCount} line${lineCount === 1 ? '' : 's'}`);
  const start = starts[first - 1];
  let end = last < starts.length ? starts[last] - 1 : text.length;
  if (end > start && text[end - 1] === '\r' && text[end] === '\n') end--;
  return { start, end };
}

/**
 * Replaces [start, end) with `replacement`. When the range ends just before a line break, a replacement that
 * ends with its own line break loses it, so the line break is not doubled.
 */
export function applyReplacement(text: string, start: number, end: number, replacement: string): string {
  let body = replacement;
  const followedByBreak = text.startsWith('\n', end) || text.startsWith('\r\n', end);
  if (followedByBreak && end > start) body = body.replace(/\r?\n$/, '');
  return text.slice(0, start) + body + text.slice(end);
}

const languageByExtension: Record<string, string> = {
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascriptreact',
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript', '.tsx': 'typescriptreact',
  '.py': 'python', '.go': 'go', '.rs': 'rust', '.java': 'java', '.cs': 'csharp',
  '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.hpp': 'cpp', '.rb': 'ruby', '.php': 'php',
};

/** VS Code's language id for a file name, `plaintext` when unknown. */
export function languageIdOf(fileName: string): string {
  return languageByExtension[extname(fileName).toLowerCase()] ?? 'plaintext';
}
