// #29's rules as data: advice from why candidates failed, one task rule, stats' default k, labels and dialog defaults.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CandidateResult, FixResult, Verdict } from '../../src/core/contract/fixRequest';
import { protectionParts } from '../../src/core/contract/protections';
import { formatResults, parseResults, requestTaskId, stableTaskId } from '../../src/core/statistics/resultsFile';
import { CLI_NAMES, EDITOR_NAMES, noFixAdvice } from '../../src/core/verification/noFixAdvice';
import { noFixLines } from '../../src/cli/fixReport';
import { runStats } from '../../src/cli/statsCommand';
import { buildSnapshot } from '../../src/host/model/sessionSnapshot';
import type { StoredTask } from '../../src/host/model/sessionSchema';
import { exportFolder, RESET_CHOICES } from '../../src/host/model/sessionDialogs';

const base: Verdict = { status: 'fail', durationMs: 200, exitCode: 1, output: '', stdout: '', stderr: '' };
const v = (over: Partial<Verdict>): Verdict => ({ ...base, ...over });

function candidate(index: number, verdict: Verdict, over: Partial<CandidateResult> = {}): CandidateResult {
  return { index, replacement: `x${index}`, verdict, duplicateOf: null, runs: [verdict], verified: false, flaky: false, diff: '', changeSize: 2, changedCharacters: 1, ...over };
}

/** range.js: the selection is line 3; the test's stack enters line 7 (inRange), outside it. */
const originalText = 'function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  return Math.min(x, hi);\n}\n\nfunction inRange(x, lo, hi) {\n  return x >= lo && x < hi;\n}\n';
const start = originalText.indexOf('  return Math.min');
const end = originalText.indexOf('\n', start) + 1;

function result(candidates: CandidateResult[], over: Partial<FixResult> = {}): FixResult {
  return {
    relativePath: 'src/range.js', testCommand: 'npm test', baseline: base, baselinePassed: false, perTest: true, failingTests: ['clamp keeps the upper bound'],
    candidates, verified: [], samples: candidates.length, passed: 0, lost: [], durationMs: 10, originalText, start, end, ...over,
  };
}

const outsideStack = 'not ok 1 - clamp keeps the upper bound\n  AssertionError: expected 10, got 11\n    at inRange (/tmp/vf-copy-1/src/range.js:7:12)\n    at TestContext.<anonymous> (/tmp/vf-copy-1/test/range.test.js:5:3)';
const stillFailing = { fixed: [], broke: [], stillFailing: ['clamp keeps the upper bound'], passed: 3, failed: 1 };

describe('noFixAdvice', () => {
  it('groups identical failures and concludes: all fail the same test, whose stack stays outside the selection', () => {
    const candidates = Array.from({ length: 10 }, (_, i) => candidate(i, v({ output: outsideStack.replace('vf-copy-1', `vf-copy-${i}`) }), { tests: stillFailing }));
    const advice = noFixAdvice(result(candidates), EDITOR_NAMES);
    assert.ok(advice);
    assert.equal(advice.groups.length, 1, 'one failure, however many copies it ran in');
    assert.deepEqual(advice.groups[0].numbers, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.equal(advice.conclusion, 'all 10 candidates still fail `clamp keeps the upper bound`; the failure points at src/range.js:7, outside the selection');
    assert.match(advice.next[0], /^select more lines to include src\/range\.js:7, or use Suggest Verified Fix on the line the stack names/);
  });

  it('says where candidates fixed some failing tests and still fail the others, which may fail for a reason of their own', () => {
    // body-parser 2.2.0 on a registry whose qs had moved on: two urlencoded tests failed before the seeded json bug.
    const partial = { fixed: ['json parses'], broke: [], stillFailing: ['urlencoded parses keys'], passed: 9, failed: 1 };
    const candidates = [candidate(0, v({}), { tests: partial }), candidate(1, v({}), { tests: partial }), candidate(2, v({ output: outsideStack }), { tests: stillFailing })];
    const r = result(candidates, { failingTests: ['json parses', 'urlencoded parses keys'] });
    const advice = noFixAdvice(r, CLI_NAMES);
    assert.ok(advice);
    assert.equal(advice.groups[0].kind, 'partial');
    assert.match(advice.conclusion, /^3 candidates failed in 2 ways: 2 \(#1, #2\) fix 1 failing test but still fail `urlencoded parses keys`; #3 still fails/);
    assert.match(advice.next[0], /^check the tests still failing on their own: they fail on the unmodified code too, .*; fix them first, or start from the failing test you mean \(--test-name with that test and no --file\/--lines/);
    assert.match(noFixAdvice(r, EDITOR_NAMES)?.next[0] ?? '', /or start from the failing test you mean \(Suggest Verified Fix on the line the stack names .*\)$/);
  });

  it('names the test timeout setting when runs time out, the sandbox when it could not start, a model for syntax errors', () => {
    const timedOut = noFixAdvice(result([candidate(0, v({ status: 'timeout', cause: 'timeout', durationMs: 1000 })), candidate(1, v({ status: 'timeout', cause: 'timeout', durationMs: 1000 }))]), EDITOR_NAMES);
    assert.equal(timedOut?.conclusion, 'all 2 candidates timed out (stopped at 1.0 s)');
    assert.match(timedOut?.next[0] ?? '', /^raise verifiedFix\.testTimeoutSeconds/);
    const setup = noFixAdvice(result([candidate(0, v({ status: 'error', cause: 'sandboxSetup', output: 'bwrap: Permission denied' }))]), EDITOR_NAMES);
    assert.match(setup?.next[0] ?? '', /make the test command run in the sandbox first \(why it did not: Verified Fix: Show Log\)/);
    const syntax = noFixAdvice(result([candidate(0, v({ output: "SyntaxError: Unexpected token ')'" }))]), EDITOR_NAMES);
    assert.equal(syntax?.conclusion, 'the only candidate does not parse (a syntax error)');
    assert.match(syntax?.next[0] ?? '', /more samples \(verifiedFix\.samples\) or a model provider/);
  });

  it('says when the baseline timed out, with its time and the setting, and never "more samples"', () => {
    const advice = noFixAdvice(result([], { baseline: v({ status: 'timeout', cause: 'timeout', durationMs: 1040 }), samples: 0, stoppedEarly: { kind: 'baselineTimeout', message: 'x' } }), EDITOR_NAMES);
    assert.match(advice?.conclusion ?? '', /the tests on the unmodified code timed out \(stopped at 1\.0 s\)/);
    assert.deepEqual(advice?.next, ['raise verifiedFix.testTimeoutSeconds above the time the tests take (they did not finish in 1.0 s)']);
  });

  it('groups a failure whose message differs only in a random path; a write the sandbox refused names the path and the fix', () => {
    const erofs = (hex: string) => `Error: EROFS: read-only file system, mkdir '/home/u/.node-spawn-wrap-2-${hex}'\n  errno: -30,\n  code: 'EROFS'`;
    const candidates = ['fce3b2bc9d96', 'bbba8ffa0f76', 'c553d4f27a25'].map((hex, i) => candidate(i, v({ output: erofs(hex) })));
    const advice = noFixAdvice(result(candidates, { perTest: false, failingTests: [], baseline: v({ output: erofs('0a1b2c3d4e5f') }) }), CLI_NAMES);
    assert.equal(advice?.groups.length, 1, JSON.stringify(advice?.groups));
    assert.equal(
      advice?.conclusion,
      "all 3 candidates could not write `/home/u/.node-spawn-wrap-2-fce3b2bc9d96` outside the run's copy (read-only in the sandbox), as the unmodified code's run could not, so the tests never ran",
    );
    assert.match(advice?.next[0] ?? '', /^make the test command write only inside the workspace or under \/tmp \(it wrote .*: nyc 14 and older put their spawn-wrap shims there/);
    const python = noFixAdvice(result([candidate(0, v({ output: "OSError: [Errno 30] Read-only file system: '/home/u/.cache/x'" }))]), CLI_NAMES);
    assert.equal(python?.conclusion, "the only candidate could not write `/home/u/.cache/x` outside the run's copy (read-only in the sandbox)");
    assert.equal(python?.next[0], 'make the test command write only inside the workspace or under /tmp (it wrote /home/u/.cache/x)');
  });

  it('gives the CLI the same steps with its own flags, and the CLI prints each failure once', () => {
    const candidates = [0, 1, 2].map((i) => candidate(i, v({ output: outsideStack }), { tests: stillFailing }));
    const r = result(candidates);
    const editor = noFixAdvice(r, EDITOR_NAMES);
    const cli = noFixAdvice(r, CLI_NAMES);
    assert.equal(cli?.conclusion, editor?.conclusion);
    assert.match(cli?.next[0] ?? '', /^widen --lines to include src\/range\.js:7, or use --test-name with that test and no --file\/--lines \(the tool finds where to look\)$/);
    const printed = noFixLines(r).join('\n');
    assert.match(printed, /^No passing fix found \(0 of 3 passed\): all 3 candidates still fail `clamp keeps the upper bound`/);
    assert.equal(printed.match(/expected 10, got 11/g)?.length, 1, printed);
    assert.match(printed, /Next: widen --lines to include src\/range\.js:7, or use --test-name with that test/);
  });
});

describe('one rule for what a task is', () => {
  it('is one request: the code (stable id) and the start time, in the editor and the CLI', () => {
    const id = requestTaskId('src/a.js', [3, 3], 'x', Date.UTC(2025, 0, 2, 3, 4, 5));
    assert.equal(id, `${stableTaskId('src/a.js', [3, 3], 'x')}@2025-01-02T03:04:05.000Z`);
    assert.notEqual(requestTaskId('src/a.js', [3, 3], 'x', 1), requestTaskId('src/a.js', [3, 3], 'x', 2), 'a repeated request is another task');
  });

  it('marks baseline-passed tasks in the file and stats leaves them out, as the panel does', async () => {
    const text = formatResults([
      { taskId: 'a', samples: [{ outcome: 'pass' }, { outcome: 'fail' }] },
      { taskId: 'b', samples: [{ outcome: 'pass' }, { outcome: 'pass' }], baselinePassed: true },
    ]);
    assert.deepEqual(parseResults(text, 'x').map((t) => [t.taskId, t.baselinePassed]), [['a', false], ['b', true]]);
    const dir = mkdtempSync(join(tmpdir(), 'vf-stats-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'r.jsonl');
    writeFileSync(file, text);
    const out: string[] = [];
    const err: string[] = [];
    assert.equal(await runStats([file, '--json'], (t) => out.push(t), (t) => err.push(t)), 0);
    const json = JSON.parse(out[0]);
    assert.equal(json.tasks, 1);
    assert.deepEqual(Object.keys(json.k), ['1'], 'the default k = 5, 10 exceed every n: skipped, not an error');
    assert.match(err.join('\n'), /k = 5, 10 skipped: no task has that many samples \(the most is 2\)/);
    assert.match(err.join('\n'), /1 task\(s\) left out: their tests passed on the unmodified code/);
    await assert.rejects(runStats([file, '--k', '5'], () => undefined), /--k 5 exceeds every task's number of samples/, 'an explicit --k that cannot be met is still an error');
  });
});

describe('the panel and the session dialogs', () => {
  const task = (id: string, startedAt: number, verified = 0): StoredTask => ({
    id, uri: 'file:///w/src/range.js', file: 'src/range.js', startLine: 3, endLine: 3, start: 0, end: 1, originalHash: 'h', startedAt, durationMs: 1000,
    outcomes: ['fail', 'pass'], verified: Array.from({ length: verified }, (_, i) => ({ index: i, replacement: 'x', runsPassed: 2, runs: 2, durationMs: 1, changeSize: 2 })), baselinePassed: false, lost: 0,
  });

  it('numbers repeated tasks on the same lines, oldest first, and says when intervals appear', () => {
    const snapshot = buildSnapshot([task('a', 1), task('b', 2), task('c', 3)], 2);
    assert.deepEqual(snapshot.table.map((t) => t.label), ['range.js:3 #3', 'range.js:3 #2', 'range.js:3']);
    assert.equal(snapshot.headline[0].passAtKInterval, '95% interval shown from 5 tasks');
  });

  it('suggests saving an export outside the repository and keeps Reset off the default button', () => {
    const home = mkdtempSync(join(tmpdir(), 'vf-home-'));
    after(() => rmSync(home, { recursive: true, force: true }));
    assert.equal(exportFolder(home), home);
    mkdirSync(join(home, 'Downloads'));
    assert.equal(exportFolder(home), join(home, 'Downloads'));
    assert.notEqual(RESET_CHOICES[0], 'Reset', 'a modal\'s first button is its default');
  });

  it('lists each protection on its own line', () => {
    const parts = protectionParts({ name: 'bubblewrap sandbox', files: 'all', processes: 'all', network: 'isolated', memory: { capMB: 4096, scope: 'run' } } as Parameters<typeof protectionParts>[0]);
    assert.deepEqual(parts.map((p) => p.label), ['Sandbox', 'Files', 'Processes', 'Network', 'Memory']);
  });
});
