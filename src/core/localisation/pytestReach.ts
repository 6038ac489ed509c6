// The tests that can reach a change under pytest, which runs every test file in one process: the files that import
// the target module, directly or through what they import, as the report plugin recorded every import of the run.
import type { Node } from 'web-tree-sitter';
import { parserFor } from '../mutation/grammars';
import type { PerTestPlan } from '../verification/stagedVerification';
import type { Reach } from '../verification/reachScope';
import { closure, graphOf, reachOfGraph } from './loadReach';

/** A pytest node id's file: `tests/test_calc.py::TestClamp::test_caps[1]` → `tests/test_calc.py`. */
const fileOf = (id: string) => ({ scope: id.split('::')[0] });

/**
 * The body of the innermost function around [start, end) of a Python file, from the start of its first line to the
 * end of its last: undefined when the selection reaches the `def` line (its defaults run when the file loads) or
 * lies outside every function. Code in a function's body runs only when the function is called.
 */
export async function pythonFunctionBody(text: string, start: number, end: number): Promise<{ start: number; end: number } | undefined> {
  const tree = (await parserFor('python')).parse(text);
  if (!tree) return undefined;
  try {
    let best: Node | undefined;
    const visit = (node: Node) => {
      for (const child of node.namedChildren) {
        if (!child) continue;
        const body = child.type === 'function_definition' ? child.childForFieldName('body') : null;
        if (body && bodyStart(text, body) <= start && end <= lineEnd(text, child.endIndex)) best = body;
        if (child.startIndex <= start && end <= lineEnd(text, child.endIndex)) visit(child);
      }
    };
    visit(tree.rootNode);
    if (!best) return undefined;
    return { start: bodyStart(text, best), end: lineEnd(text, best.endIndex) };
  } finally {
    tree.delete();
  }
}

/** Where a function's body starts: its first line's start, or just past the header's `:` when it shares that line. */
function bodyStart(text: string, body: Node): number {
  return Math.max(text.lastIndexOf('\n', body.startIndex - 1) + 1, text.lastIndexOf(':', body.startIndex) + 1);
}

/** The offset just past the end of the line `at` is on (its newline included). */
function lineEnd(text: string, at: number): number {
  const next = text.indexOf('\n', at);
  return next < 0 ? text.length : next + 1;
}

/** The conftest.py files the run loaded that apply to `file`: those in its folder or one above it. */
function conftestsOf(nodes: readonly string[], file: string): string[] {
  return nodes.filter((m) => /(^|\/)conftest\.py$/.test(m) && file.startsWith(m.slice(0, m.length - 'conftest.py'.length)));
}

/**
 * The reach of [start, end) of `relativePath` from the baseline's record of imports: every test of each test file
 * whose imports, or those of a conftest.py above it (its fixtures are the file's), reach the target module. The whole
 * command stays the judge (a `problem`) when the selection is not inside a function's body, when a test file left no
 * record (a pytest-xdist worker, a run cut short), or when a file that does not load the target shares a project
 * module with one that does.
 */
export async function reachFromPytestLoads(loads: string | undefined, plan: PerTestPlan, relativePath: string, fileText: string, start: number, end: number): Promise<Reach> {
  if (!loads) return { problem: 'the baseline run left no record of what its test files imported' };
  const fn = await pythonFunctionBody(fileText, start, end);
  if (!fn) return { problem: 'the selection is not inside the body of a function (a top-level edit is seen by every test that loads the file)' };
  const graph = graphOf(loads);
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flat()])];
  const files = [...new Set(plan.baseline.map((test) => fileOf(test.id).scope))];
  const closureOf = (file: string) => new Set([file, ...conftestsOf(nodes, file)].flatMap((root) => [...closure(graph, root)]));
  return reachOfGraph(graph, plan, files, relativePath, fn, closureOf, fileOf);
}
