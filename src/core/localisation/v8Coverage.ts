// Node's built-in coverage (NODE_V8_COVERAGE): V8's block ranges of one file turned into the lines that ran.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { lineStartsOf } from '../mutation/parseCheck';
import { isWorkspaceFile } from '../testResults/stackLocations';

/** The variable that makes every node process write its coverage as JSON into a folder when it exits. */
export const V8_COVERAGE_VARIABLE = 'NODE_V8_COVERAGE';

/** A coverage file larger than this is skipped: node writes every script it loaded, and a test's are far smaller. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

interface V8Range {
  readonly startOffset: number;
  readonly endOffset: number;
  readonly count: number;
}

interface V8Script {
  readonly url: string;
  readonly functions: ReadonlyArray<{ readonly ranges: readonly V8Range[] }>;
}

function isRange(value: unknown): value is V8Range {
  const r = value as V8Range;
  return typeof r?.startOffset === 'number' && typeof r.endOffset === 'number' && typeof r.count === 'number';
}

/** The scripts of one coverage file (`{ result: [...] }`) that are `relativePath`; never throws. */
function scriptsOf(report: unknown, relativePath: string): V8Script[] {
  const result = (report as { result?: unknown })?.result;
  if (!Array.isArray(result)) return [];
  return result.filter((script): script is V8Script => {
    const s = script as V8Script;
    if (typeof s?.url !== 'string' || !Array.isArray(s.functions)) return false;
    // `file:///x/src/a.js` (both module kinds) or a plain path.
    return isWorkspaceFile(s.url, relativePath);
  });
}

/**
 * The lines one script ran. V8 nests block ranges inside function ranges, and a position's count is that of the
 * innermost range holding it: painting the ranges from the longest to the shortest leaves each position its
 * innermost count. A line ran when any of its non-blank characters did (`if (x) {` ran though its block did not).
 * undefined when the script is not `fileText` as written: the script-wide range must span exactly the text, which a
 * transformed file (Babel, a bundler, a TypeScript loader that does not keep offsets) does not.
 */
function linesOfScript(script: V8Script, fileText: string, lineStarts: readonly number[]): Set<number> | undefined {
  const ranges = script.functions.flatMap((fn) => (Array.isArray(fn?.ranges) ? fn.ranges.filter(isRange) : []));
  const whole = ranges.find((r) => r.startOffset === 0 && r.count > 0);
  if (!whole || whole.endOffset !== fileText.length) return undefined;
  const ran = new Uint8Array(fileText.length);
  const bySize = [...ranges].sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
  for (const r of bySize) ran.fill(r.count > 0 ? 1 : 0, Math.max(0, r.startOffset), Math.min(fileText.length, r.endOffset));
  const lines = new Set<number>();
  lineStarts.forEach((start, i) => {
    const end = i + 1 < lineStarts.length ? lineStarts[i + 1] : fileText.length;
    for (let at = start; at < end; at++) {
      // A statement's closing `;` (or bracket) lies outside the zero-count range V8 gives the code after an early
      // return, so it would mark a line that never ran as run.
      if (ran[at] && !/[\s;,)\]}]/.test(fileText[at])) {
        lines.add(i + 1);
        return;
      }
    }
  });
  return lines;
}

/**
 * The 1-based lines of `fileText` (the file at `relativePath` as the run saw it) that ran, merged over every
 * script of it in `reports` (parsed coverage files: one per process). undefined when no report holds the file as
 * written (not loaded, or transformed before it ran).
 */
export function v8LineHits(reports: readonly unknown[], relativePath: string, fileText: string): Set<number> | undefined {
  const lineStarts = lineStartsOf(fileText);
  let hits: Set<number> | undefined;
  for (const report of reports) {
    for (const script of scriptsOf(report, relativePath)) {
      const lines = linesOfScript(script, fileText, lineStarts);
      if (!lines) continue;
      hits ??= new Set();
      for (const line of lines) hits.add(line);
    }
  }
  return hits;
}

/** The coverage files node wrote into `dir` (`coverage-<pid>-<time>-<n>.json`), parsed; unreadable ones skipped. */
export async function readV8Reports(dir: string): Promise<unknown[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const reports: unknown[] = [];
  for (const name of names.filter((n) => /^coverage-.*\.json$/.test(n))) {
    const path = join(dir, name);
    const size = await stat(path).then((s) => s.size, () => Infinity);
    if (size > MAX_FILE_BYTES) continue;
    try {
      reports.push(JSON.parse(await readFile(path, 'utf8')));
    } catch {
      // cut short (the run was killed while writing) or not JSON: the other processes' files still count
    }
  }
  return reports;
}
