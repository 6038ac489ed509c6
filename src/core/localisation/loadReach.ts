// The tests that can reach a change when one process runs many test files (mocha): the files that load the target
// module, directly or through the modules they require, as the engine's hook recorded every `require` of the run.
import type { PerTestPlan } from '../verification/stagedVerification';
import type { Reach } from '../verification/reachScope';
import { splitId } from '../testResults/ids';
import { isWorkspaceFile } from '../testResults/stackLocations';
import { ran, scripts, selectedFunction, targetScripts } from './reachingTests';

/** `parent\tchild` lines (paths relative to the run's folder) as a map from each module to what it required. */
export function graphOf(loads: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const line of loads.split('\n')) {
    const [parent, child] = line.split('\t');
    if (!parent || !child) continue;
    graph.set(parent, [...(graph.get(parent) ?? []), child]);
  }
  return graph;
}

/** Every module `file` loads, itself included, following the recorded requires. */
export function closure(graph: Map<string, string[]>, file: string): Set<string> {
  const seen = new Set<string>([file]);
  const todo = [file];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    for (const child of graph.get(next) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      todo.push(child);
    }
  }
  return seen;
}

/** A module of the project itself (not a package, not a builtin): state in it is state the project's tests share. */
const ownModule = (file: string) => !/(^|\/)(node_modules|site-packages)\//.test(file) && !file.startsWith('..') && !file.startsWith('/') && /\.([cm]?[jt]sx?|py)$/.test(file);

/**
 * The reach of [start, end) of `relativePath` from the baseline's coverage and its recorded requires: every test of
 * each test file whose requires reach the target. The whole command stays the judge (a `problem`) when a process that
 * ran the function loaded no test file (a child process), when a test file left no record of what it required (an
 * ES module, a `--parallel` worker), or when a file that does not load the target shares a project module with one
 * that does (it could read what the other left there); a global shared the same way is the condition the docs state.
 */
export function reachFromLoads(reports: readonly unknown[], loads: string | undefined, plan: PerTestPlan, relativePath: string, fileText: string, start: number, end: number): Reach {
  if (reports.length === 0) return { problem: 'the baseline run wrote no coverage' };
  if (!loads) return { problem: 'the baseline run left no record of what its test files required' };
  const fn = selectedFunction(reports, relativePath, fileText, start, end);
  if (!fn) return { problem: 'the selection is not inside the body of a function the tests load (a top-level edit is seen by every test that loads the file)' };
  const files = [...new Set(plan.baseline.map((test) => splitId(test.id).scope))];
  const graph = graphOf(loads);
  for (const report of reports) {
    const urls = scripts(report).map((s) => s.url);
    if (urls.some((url) => isWorkspaceFile(url, relativePath)) && targetScripts(report, relativePath, fileText).length === 0) {
      return { problem: `a process ran ${relativePath} transformed (by a loader or a bundler), so its coverage does not match the file` };
    }
    if (ran(report, relativePath, fileText, fn) && !files.some((file) => urls.some((url) => isWorkspaceFile(url, file)))) {
      return { problem: 'a process that loaded no test file ran the selected function (a child process or a worker), so its tests cannot be told' };
    }
  }
  return reachOfGraph(graph, plan, files, relativePath, fn, (file) => closure(graph, file), splitId);
}

/**
 * The reach from the graph of what each test file loads (`closureOf`, itself included): every test of each file
 * that loads the target, unless a test file left no record or a file that does not load it shares a project module
 * (other than a test file or a conftest.py) with one that does.
 */
export function reachOfGraph(graph: ReadonlyMap<string, readonly string[]>, plan: PerTestPlan, files: readonly string[], relativePath: string, fn: { start: number; end: number }, closureOf: (file: string) => Set<string>, split: (id: string) => { scope: string }): Reach {
  const unrecorded = files.filter((file) => !graph.has(file));
  if (unrecorded.length > 0) return { problem: `no record of what ${unrecorded[0]} required${unrecorded.length > 1 ? ` (and ${unrecorded.length - 1} more test files)` : ''} (an ES module, or a worker process)` };
  const closures = new Map(files.map((file) => [file, closureOf(file)]));
  const reaching = files.filter((file) => [...(closures.get(file) ?? [])].some((m) => isWorkspaceFile(m, relativePath)));
  if (reaching.length === files.length) return { problem: 'every test file loads the target module' };
  const shared = new Set(reaching.flatMap((file) => [...(closures.get(file) ?? [])].filter((m) => ownModule(m) && !files.includes(m) && !/(^|\/)conftest\.py$/.test(m))));
  for (const file of files.filter((f) => !reaching.includes(f))) {
    const common = [...(closures.get(file) ?? [])].find((m) => shared.has(m));
    if (common) return { problem: `${file} does not load the target but shares ${common} with a test file that does, so it could see what the change left there` };
  }
  const wanted = new Set(reaching);
  const ids = plan.baseline.filter((test) => wanted.has(split(test.id).scope)).map((test) => test.id);
  return { ids: [...new Set(ids)], total: plan.baselineRan, functionStart: fn.start, functionEnd: fn.end, byLoads: true };
}
