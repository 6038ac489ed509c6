// Small readers shared by the adapters: JSON that may be cut short, paths made relative, failure messages bounded.
import { isAbsolute, relative } from 'node:path';
import { stripAnsi } from '../base/ansi';

/** About this many characters of a failure are kept: enough to recognise it, small enough to log and show. */
export const MESSAGE_LIMIT = 2048;
const MESSAGE_LINES = 30;

// Stack frames inside the runner or Node itself say nothing about the code under test.
const RUNNER_FRAME = /^\s*at .*(?:\(node:|\bnode:internal\/|[\\/]node_modules[\\/])/;

/** The first lines of a failure, without colours or runner-internal stack frames, within MESSAGE_LIMIT; undefined if blank. */
export function boundMessage(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const lines = stripAnsi(text).split(/\r?\n/).filter((line) => !RUNNER_FRAME.test(line));
  let kept = lines.slice(0, MESSAGE_LINES).join('\n').trim();
  if (kept.length > MESSAGE_LIMIT) kept = `${kept.slice(0, MESSAGE_LIMIT - 1)}…`;
  return kept || undefined;
}

/** `file` relative to `cwd` when it lies inside it, with `/` separators; other paths unchanged. */
export function relativeTo(cwd: string, file: string): string {
  if (!isAbsolute(file) || !cwd) return file;
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel.split('\\').join('/');
}

/** `text` parsed as JSON, or undefined when it is not (an empty or half-written report). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Each line of `text` that parses as a JSON object; others (a line cut by a kill, stray output) are skipped. */
export function jsonLines(text: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    const value = parseJson(line);
    if (value && typeof value === 'object' && !Array.isArray(value)) out.push(value as Record<string, unknown>);
  }
  return out;
}

/** `value` if it is a string, else undefined: reports are untrusted input. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
