// The tests that can reach a change: from the baseline's V8 coverage (one file per process), the tests whose process
// ran the selected function. A test in a process that never ran it cannot observe an edit inside its body.
import type { PerTestPlan } from '../verification/stagedVerification';
import type { Reach } from '../verification/reachScope';
import { splitId } from '../testResults/ids';
import { isWorkspaceFile } from '../testResults/stackLocations';

interface V8Function {
  readonly ranges: ReadonlyArray<{ readonly startOffset: number; readonly endOffset: number; readonly count: number }>;
}

interface V8Script {
  readonly url: string;
  readonly functions: readonly V8Function[];
}

/** The scripts of one coverage file; never throws. */
export function scripts(report: unknown): V8Script[] {
  const result = (report as { result?: unknown })?.result;
  if (!Array.isArray(result)) return [];
  return result.filter((s): s is V8Script => typeof (s as V8Script)?.url === 'string' && Array.isArray((s as V8Script).functions));
}

/** The scripts of the target file as written (a transformed one's offsets are not the file's). */
export function targetScripts(report: unknown, relativePath: string, fileText: string): V8Script[] {
  return scripts(report).filter((s) => isWorkspaceFile(s.url, relativePath) && s.functions.some((fn) => {
    const r = ownRange(fn);
    return r !== undefined && r.start === 0 && r.end === fileText.length;
  }));
}

/** A function's own range (its first), when well formed. */
function ownRange(fn: V8Function): { start: number; end: number; count: number } | undefined {
  const r = Array.isArray(fn?.ranges) ? fn.ranges[0] : undefined;
  return r && typeof r.startOffset === 'number' && typeof r.endOffset === 'number' && typeof r.count === 'number' ? { start: r.startOffset, end: r.endOffset, count: r.count } : undefined;
}

/**
 * The innermost function (not the script) that holds [start, end) in any report of the target file, with the
 * selection inside its block body: after the function's first `{` opened outside its parameters. undefined when
 * the selection is at the top level, in an expression-bodied arrow, or in a function no process listed.
 */
export function selectedFunction(reports: readonly unknown[], relativePath: string, fileText: string, start: number, end: number): { start: number; end: number } | undefined {
  let best: { start: number; end: number } | undefined;
  for (const report of reports) {
    for (const script of targetScripts(report, relativePath, fileText)) {
      for (const fn of script.functions) {
        const r = ownRange(fn);
        if (!r || (r.start === 0 && r.end === fileText.length) || r.start > start || r.end < end) continue;
        if (!best || r.end - r.start < best.end - best.start) best = { start: r.start, end: r.end };
      }
    }
  }
  if (!best) return undefined;
  // Brackets from the function's start to the selection: the outermost still open must be a brace (the body).
  const stack: string[] = [];
  for (const c of fileText.slice(best.start, start).replace(/"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '""')) {
    if (c === '(' || c === '[' || c === '{') stack.push(c);
    else if (c === ')' || c === ']' || c === '}') stack.pop();
  }
  return stack[0] === '{' && end < best.end ? best : undefined;
}

/** Whether one process ran the function (listed with a count above 0). */
export function ran(report: unknown, relativePath: string, fileText: string, fn: { start: number; end: number }): boolean {
  return targetScripts(report, relativePath, fileText).some((s) => s.functions.some((f) => {
    const r = ownRange(f);
    return r !== undefined && r.start === fn.start && r.end === fn.end && r.count > 0;
  }));
}

/**
 * The reach of the selection [start, end) of `relativePath` (as `fileText`) from the baseline's coverage files:
 * every test of each test file whose process ran the selected function. The whole command stays the judge (a
 * `problem`) when a process that ran it loaded no test file the report names (a child process, a worker), when a
 * test file the report names left no coverage (its process did not write one), or when the selection is not inside
 * one function's block body.
 */
export function reachFromCoverage(reports: readonly unknown[], plan: PerTestPlan, relativePath: string, fileText: string, start: number, end: number): Reach {
  if (reports.length === 0) return { problem: 'the baseline run wrote no coverage' };
  const fn = selectedFunction(reports, relativePath, fileText, start, end);
  if (!fn) return { problem: 'the selection is not inside the body of a function the tests load (a top-level edit is seen by every test that loads the file)' };
  const files = [...new Set(plan.baseline.map((test) => splitId(test.id).scope))];
  const covered = new Set<string>();
  const reaching = new Set<string>();
  for (const report of reports) {
    const urls = scripts(report).map((s) => s.url);
    const own = files.filter((file) => urls.some((url) => isWorkspaceFile(url, file)));
    own.forEach((file) => covered.add(file));
    if (urls.some((url) => isWorkspaceFile(url, relativePath)) && targetScripts(report, relativePath, fileText).length === 0) {
      return { problem: `a process ran ${relativePath} transformed (by a loader or a bundler), so its coverage does not match the file` };
    }
    if (!ran(report, relativePath, fileText, fn)) continue;
    if (own.length === 0) return { problem: 'a process that loaded no test file ran the selected function (a child process or a worker), so its tests cannot be told' };
    own.forEach((file) => reaching.add(file));
  }
  const uncovered = files.filter((file) => !covered.has(file));
  if (uncovered.length > 0) return { problem: `no coverage came from ${uncovered[0]}${uncovered.length > 1 ? ` and ${uncovered.length - 1} more test files` : ''}` };
  if (files.every((file) => reaching.has(file))) return { problem: 'every test file\'s process ran the selected function' };
  const ids = plan.baseline.filter((test) => reaching.has(splitId(test.id).scope)).map((test) => test.id);
  return { ids: [...new Set(ids)], total: plan.baselineRan, functionStart: fn.start, functionEnd: fn.end };
}
