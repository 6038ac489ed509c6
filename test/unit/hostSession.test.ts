// The extension's pure session helpers: saved-state validation, the panel/status-bar snapshot, CSV, the run report.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CandidateResult, FixResult, Verdict } from '../../src/core/contract/fixRequest';
import { bubblewrapHint } from '../../src/core/sandbox/installHint';
import { failureExcerpt, formatRunReport } from '../../src/host/model/runReport';
import { formatSessionCsv } from '../../src/host/model/sessionCsv';
import type { StoredTask } from '../../src/host/model/sessionSchema';
import { loadSession } from '../../src/host/model/sessionSchema';
import { verifiedLabel } from '../../src/host/model/candidateLabels';
import { buildSnapshot, statusText, statusTooltip } from '../../src/host/model/sessionSnapshot';

function task(id: string, outcomes: StoredTask['outcomes'], extra: Partial<StoredTask> = {}): StoredTask {
  return {
    id, uri: `file:///ws/${id}.js`, file: `${id}.js`, startLine: 7, endLine: 7, start: 100, end: 140, originalHash: 'ab',
    startedAt: 1_700_000_000_000, durationMs: 4200, outcomes, verified: [], baselinePassed: false, lost: 0, ...extra,
  };
}

const candidate = { index: 1, replacement: 'i <= n', runsPassed: 2, runs: 2, durationMs: 1400, changeSize: 2 };

describe('loadSession', () => {
  it('accepts nothing saved and a well-formed list', () => {
    assert.deepEqual(loadSession(undefined), { tasks: [] });
    const tasks = [task('a', ['pass', 'fail'], { verified: [candidate] })];
    assert.deepEqual(loadSession(JSON.parse(JSON.stringify(tasks))), { tasks });
  });

  it('keeps why a request stopped early with its kind, and recovers the kind of sessions saved with the message only', () => {
    const stopped = task('a', [], { stoppedEarly: { kind: 'totalTimeout', message: 'total timeout (600 s)' } });
    assert.deepEqual(loadSession(JSON.parse(JSON.stringify([stopped]))).tasks[0].stoppedEarly, { kind: 'totalTimeout', message: 'total timeout (600 s)' });
    const legacy = (message: string) => loadSession([{ ...task('b', []), stoppedEarly: message }]).tasks[0].stoppedEarly;
    assert.deepEqual(legacy('total timeout (5 s)'), { kind: 'totalTimeout', message: 'total timeout (5 s)' });
    assert.deepEqual(legacy('cancelled'), { kind: 'cancelled', message: 'cancelled' });
    assert.deepEqual(legacy('the provider failed: HTTP 500'), { kind: 'providerError', message: 'the provider failed: HTTP 500' });
  });

  const corrupt: Array<[string, unknown, RegExp]> = [
    ['a string', 'garbage', /not a list of tasks/],
    ['an object', { tasks: [] }, /not a list of tasks/],
    ['a task without outcomes', [{ ...task('a', []), outcomes: undefined }], /task 1 is malformed/],
    ['an unknown outcome', [task('a', ['pass']), { ...task('b', []), outcomes: ['passed'] }], /task 2 is malformed/],
    ['a malformed candidate', [{ ...task('a', ['pass']), verified: [{ index: 0 }] }], /task 1 is malformed/],
    ['null', null, /not a list of tasks/],
  ];
  for (const [name, saved, problem] of corrupt) {
    it(`resets ${name} with a problem instead of throwing`, () => {
      const loaded = loadSession(saved);
      assert.deepEqual(loaded.tasks, []);
      assert.match(loaded.problem ?? '', problem);
      assert.match(loaded.problem ?? '', /the session was reset/);
    });
  }
});

describe('buildSnapshot and the status bar', () => {
  const tasks = [task('a', ['pass', 'fail', 'fail', 'fail'], { verified: [candidate] }), task('b', ['fail', 'fail', 'timeout', 'fail']), task('c', ['pass', 'pass', 'pass', 'fail'], { promptTokens: 100, completionTokens: 20 })];

  it('computes pass@1 and pass@k over tasks, sorts the grid by passes and the table newest first', () => {
    const s = buildSnapshot(tasks, 2);
    assert.equal(s.tasks, 3);
    assert.equal(s.samples, 12);
    assert.deepEqual(s.headline.map((h) => h.k), [1, 2]);
    assert.ok(Math.abs(s.headline[0].passAtK - (0.25 + 0 + 0.75) / 3) < 1e-12);
    // pass@2: a = 1 − C(3,2)/C(4,2) = 0.5; b = 0; c = 1.
    assert.ok(Math.abs(s.headline[1].passAtK - 0.5) < 1e-12);
    assert.deepEqual(s.grid.map((t) => t.taskId), ['c', 'a', 'b']);
    assert.deepEqual(s.table.map((t) => t.taskId), ['c', 'b', 'a']);
    assert.equal(s.curves.length, 4);
    assert.equal(s.table[1].outcome, 'none passed');
    assert.equal(s.table[2].outcome, '1 verified');
    assert.deepEqual(s.cost, { verifiedFixes: 1, weakFixes: 0, secondsPerFix: 12.6, tokensPerFix: 120 });
  });

  it('renders "$(beaker) pass@1 33% · pass@2 50%" and a tooltip with tasks, samples and pass^k', () => {
    const s = buildSnapshot(tasks, 2);
    assert.equal(statusText(s), '$(beaker) pass@1 33% · pass@2 50%');
    const tooltip = statusTooltip(s);
    assert.match(tooltip, /3 tasks, 12 samples/);
    assert.match(tooltip, /pass\^2 \d+%/);
  });

  it('leaves tasks whose baseline passed out of the statistics, and says so in the table', () => {
    const withBaselinePass = [...tasks, task('d', ['pass', 'pass', 'pass', 'pass'], { baselinePassed: true, verified: [candidate] })];
    const s = buildSnapshot(withBaselinePass, 2);
    assert.equal(s.tasks, 3);
    assert.equal(statusText(s), '$(beaker) pass@1 33% · pass@2 50%');
    assert.equal(s.table[0].outcome, 'baseline passed, not counted (1 verified)');
  });

  it('shows one k when k = 1 and a dash when no task has n ≥ k', () => {
    assert.equal(statusText(buildSnapshot(tasks, 1)), '$(beaker) pass@1 33%');
    assert.equal(statusText(buildSnapshot([task('a', ['pass'])], 5)), '$(beaker) pass@1 100% · pass@5 –');
    assert.equal(buildSnapshot([], 5).tasks, 0);
  });
});

describe('what the panel says about its numbers', () => {
  it('explains pass@k and pass^k for this session, and shows intervals only from 5 tasks', () => {
    const few = buildSnapshot([task('a', ['pass', 'fail']), task('b', ['fail', 'fail'])], 2);
    const h = few.headline[1];
    assert.equal(h.explainPassAtK, 'pass@2: the chance that at least one of 2 candidates is verified, estimated over 2 tasks of this session');
    assert.match(h.explainPassHatK, /^pass\^2: the chance that all 2 candidates are verified, estimated over 2 tasks of this session/);
    assert.equal(h.showIntervals, false);
    assert.equal(h.passAtKInterval, '95% interval shown from 5 tasks');
    assert.doesNotMatch(statusTooltip(few), /CI/);
    const five = buildSnapshot(['a', 'b', 'c', 'd', 'e'].map((id, i) => task(id, i % 2 ? ['pass', 'fail'] : ['fail', 'fail'])), 2);
    assert.equal(five.headline[1].showIntervals, true);
    assert.match(five.headline[1].passAtKInterval, /^95% CI \d+%–\d+%$/);
    assert.match(statusTooltip(five), /95% CI/);
  });
});

describe('strength in the panel and the candidate list', () => {
  it('marks a task whose best fix had weak tests, counts the share, and words each verified candidate', () => {
    const weak = { ...candidate, strength: { variants: 10, caught: 6, weak: true } };
    const pinned = { ...candidate, strength: { variants: 10, caught: 10, weak: false } };
    const s = buildSnapshot([task('a', ['pass', 'fail'], { verified: [weak, pinned] }), task('b', ['pass'], { verified: [pinned] })], 1);
    assert.equal(s.table.find((t) => t.taskId === 'a')?.outcome, '2 verified, weak tests');
    assert.equal(s.table.find((t) => t.taskId === 'b')?.outcome, '1 verified');
    assert.equal(s.cost?.weakFixes, 1);
    assert.equal(verifiedLabel(weak), 'passed 2/2 runs, 1.4 s · weak tests: 4 of 10 variants also pass, review it');
    assert.equal(verifiedLabel(pinned), 'passed 2/2 runs, 1.4 s · tests pin it: 10 of 10 variants caught');
    assert.equal(verifiedLabel(candidate), 'passed 2/2 runs, 1.4 s', 'before the check: no strength');
  });

  it('says which repair round a model\'s verified candidate came from', () => {
    assert.equal(verifiedLabel({ ...candidate, round: 2 }), 'round 2 · passed 2/2 runs, 1.4 s');
    assert.equal(verifiedLabel({ ...candidate, round: 1 }), 'passed 2/2 runs, 1.4 s', 'the first round goes unsaid');
  });
});

describe('formatSessionCsv', () => {
  it('writes one quoted row per task with its estimators', () => {
    const csv = formatSessionCsv([task('a,"b"', ['pass', 'fail'])], 2).trim().split('\n');
    assert.equal(csv[0], 'task_id,file,lines,started,duration_s,n,c,verified,outcomes,pass@1,pass@2,pass^2');
    assert.equal(csv[1], '"a,""b""","a,""b"".js",7,2023-11-14T22:13:20.000Z,4.2,2,1,0,pass fail,0.5000,1.0000,0.0000');
  });
});

describe('the run report', () => {
  const verdict = (status: Verdict['status'], output: string): Verdict => ({ status, durationMs: 1200, exitCode: 1, output, stdout: output, stderr: '' });
  it('picks the lines that say what failed', () => {
    const output = 'TAP version 13\n# Subtest: sumTo\nnot ok 1 - sumTo\n  AssertionError: expected 10, got 6\nok 2 - other\n';
    assert.deepEqual(failureExcerpt(verdict('fail', output)), ['not ok 1 - sumTo', '  AssertionError: expected 10, got 6']);
    assert.deepEqual(failureExcerpt(verdict('fail', 'a\nb\nc'), 2), ['b', 'c']);
    // node's assert prints the values on lines of their own, after a blank line, before the stack.
    const node = 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n50 !== 40\n\n    at TestContext.<anonymous> (test/p.test.js:10:10)\n    at Test.run (node:internal)\n';
    // The first frame outside the runner says where; the runner's own are left out.
    assert.deepEqual(failureExcerpt(verdict('fail', node)), ['AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:', '50 !== 40', '    at TestContext.<anonymous> (test/p.test.js:10:10)']);
    const jest = '● sum › adds\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 10\n    Received: 6\n\n      at Object.<anonymous> (sum.test.js:3:20)';
    assert.deepEqual(failureExcerpt(verdict('fail', jest)).slice(-3, -1), ['    Expected: 10', '    Received: 6']);
  });

  it('lists every candidate with its verdict', () => {
    const c = (index: number, status: Verdict['status']): CandidateResult => ({
      index, replacement: 'x', verdict: verdict(status, 'not ok 1 - boom'), duplicateOf: null, runs: [verdict(status, '')], verified: false, flaky: false,
      diff: '--- a/sum.js\n+++ b/sum.js\n@@ -1 +1 @@\n-a\n+x\n', changeSize: 2, changedCharacters: 1,
    });
    const result = {
      relativePath: 'sum.js', testCommand: 'npm test', baseline: verdict('fail', ''), baselinePassed: false, perTest: false, failingTests: [], candidates: [c(0, 'fail'), c(1, 'timeout')],
      verified: [], samples: 2, passed: 0, lost: [], durationMs: 10, originalText: 'a\n', start: 0, end: 1,
    } satisfies FixResult;
    const report = formatRunReport(result, 'sum.js:1');
    // The conclusion first, each failure once with its candidates, then every candidate's verdict.
    assert.match(report, /\*\*2 candidates failed in 2 ways: #2 timed out \(stopped at 1\.2 s\); #1 fails with `not ok 1 - boom`\.\*\*/);
    assert.match(report, /Next: raise verifiedFix\.testTimeoutSeconds/);
    assert.match(report, /### Candidate 1: fail, 1\.2 s/);
    assert.match(report, /### Candidate 2: timeout/);
    assert.doesNotMatch(report.slice(report.indexOf('## Each candidate')), /not ok 1 - boom/, 'each failure is quoted once, in its group');
    assert.doesNotMatch(report, /```diff/, 'diffs in plain blocks: the preview colours + lines light green on pale green');
    assert.match(report, /0 of 2 samples passed/);
  });
});

describe('bubblewrapHint', () => {
  it('names the install command of the distribution, and the container backend where bubblewrap cannot exist', () => {
    assert.equal(bubblewrapHint('linux', 'ID=ubuntu\nID_LIKE=debian\n'), 'install bubblewrap for the full sandbox: sudo apt install bubblewrap');
    assert.equal(bubblewrapHint('linux', 'ID="rocky"\nID_LIKE="rhel centos fedora"\n'), 'install bubblewrap for the full sandbox: sudo dnf install bubblewrap');
    assert.equal(bubblewrapHint('linux', 'ID=arch\n'), 'install bubblewrap for the full sandbox: sudo pacman -S bubblewrap');
    assert.match(bubblewrapHint('linux', 'ID=plan9\n'), /the package is named bubblewrap/);
    assert.match(bubblewrapHint('darwin', ''), /only on Linux.*--sandbox container/);
  });
});
