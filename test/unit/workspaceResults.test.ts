// A workspace-level request's results-file records: one task holding the samples of every function it tried, each
// naming its function; `--json` lists each tried function's samples with the same fields.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localisationJson, workspaceTaskRecords } from '../../src/cli/workspaceReport';
import type { FixResult } from '../../src/core/contract/fixRequest';
import type { TriedFunction, WorkspaceFixResult } from '../../src/core/engine/workspaceFix';
import type { LocalisedWorkspace } from '../../src/core/engine/workspaceLocalisation';
import { formatResults, parseResults } from '../../src/core/statistics/resultsFile';

const resultOf = (outcomes: Array<['pass' | 'fail', string]>): FixResult =>
  ({ candidates: outcomes.map(([status, replacement]) => ({ replacement, verdict: { status, durationMs: 5 } })), baselinePassed: false }) as unknown as FixResult;

function tried(name: string, startLine: number, outcomes: Array<['pass' | 'fail', string]>): TriedFunction {
  const passed = outcomes.filter(([o]) => o === 'pass').length;
  return { relativePath: `src/${name}.js`, name, startLine, endLine: startLine + 3, score: 0.5, coverage: 0.5, stack: 0, samples: outcomes.length, passed, verified: passed > 0, result: resultOf(outcomes) };
}

const helper = tried('toInt', 1, [['fail', 'a'], ['fail', 'b']]);
const clamp = tried('clamp', 2, [['fail', 'c'], ['pass', 'd'], ['fail', 'e']]);
const localisation = { ranked: [helper, clamp], failingTests: ['t'], evidence: 'coverage', explanations: [], coverageRuns: 2 } as unknown as LocalisedWorkspace;
const out: WorkspaceFixResult = { localisation, tried: [helper, clamp], found: clamp, result: clamp.result, lines: [2, 5], durationMs: 1 };

describe('a workspace-level request\'s results', () => {
  it('writes one task with every tried function\'s samples, each naming its function', () => {
    const text = formatResults([workspaceTaskRecords(out, 'src/clamp.js:2-5#abc@t')]);
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 5);
    assert.deepEqual(lines.map((l) => l.site), ['src/toInt.js:1-4 toInt', 'src/toInt.js:1-4 toInt', 'src/clamp.js:2-5 clamp', 'src/clamp.js:2-5 clamp', 'src/clamp.js:2-5 clamp']);
    assert.deepEqual(lines.map((l) => l.completion), ['a', 'b', 'c', 'd', 'e']);
    const [task] = parseResults(text, 'results.jsonl');
    assert.equal(task.outcomes.length, 5, 'stats count the whole budget of the request');
  });

  it('lists each tried function\'s samples in --json', () => {
    const json = localisationJson(out) as { functions: Array<{ name: string; results?: Array<{ passed: boolean }> }> };
    assert.deepEqual(json.functions.map((f) => f.results?.map((r) => r.passed)), [[false, false], [false, true, false]]);
  });
});
