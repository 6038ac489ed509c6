// Through the built CLI with a real pytest: survivors run only the test files that import the target module (directly
// or through a helper), as the report plugin recorded in the baseline run; the top-ranked fix runs the full suite once.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const pytestAvailable = spawnSync('python3', ['-c', 'import pytest']).status === 0;
const tempRoot = makeTempRoot();
const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const made: string[] = [tempRoot];
after(() => remove(...made));

const files = {
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'calc.py': 'def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return lo\n    return x\n\n\ndef double(x):\n    return 2 * x\n',
  'words.py': 'def shout(s):\n    return s.upper()\n',
  'tests/helper.py': 'from calc import clamp\n\n\ndef low():\n    return clamp(-5, 0, 10)\n',
  // Import clamp: the failing test and one that a wrong fix breaks (through the helper).
  'tests/test_clamp.py': 'from calc import clamp\n\n\ndef test_caps():\n    assert clamp(15, 0, 10) == 10\n\n\ndef test_keeps():\n    assert clamp(5, 0, 10) == 5\n',
  'tests/test_bounds.py': 'import helper\n\n\ndef test_low():\n    assert helper.low() == 0\n',
  // Never import calc.py.
  'tests/test_words.py': 'from words import shout\n\n\ndef test_shout():\n    assert shout("a") == "A"\n',
  'tests/test_plain.py': 'def test_plain():\n    assert 1 + 1 == 2\n',
};

/** Candidates for line 5 of calc.py: the fix, and a larger one. */
const CANDIDATES = ['        return hi', '        return min(hi, x)'];

async function fix(candidates: readonly string[], lines: string, extra: readonly string[] = []) {
  const ws = makeWorkspace(files);
  const folder = makeWorkspace({ 'candidates.json': JSON.stringify(candidates) });
  made.push(ws, folder);
  const args = ['fix', '--workspace', ws, '--file', 'calc.py', '--lines', lines, '--provider', 'file', '--candidates', join(folder, 'candidates.json'), '--test', 'python3 -m pytest -q'];
  args.push('--parallel', '2', '--confirm-runs', '1', '--k', '1', '--strength', 'off', '--behaviour', 'off', '--json', '--verbose', ...extra);
  const r = await runCli(args, { env });
  return { r, json: r.stdout ? JSON.parse(r.stdout) : undefined };
}

describe('tests that reach the change (pytest)', { skip: !pytestAvailable && 'needs pytest' }, () => {
  it('a survivor runs only the test files that import the target; the top fix runs the full suite once', async () => {
    // A wrong candidate first: the first starts its full run beside the baseline (a head start) and is never narrowed.
    const { r, json } = await fix(['        return x', ...CANDIDATES], '5-5');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /reaching tests: 3 of 5 tests are in test files that load the target module/);
    const [wrong, top, larger] = json.candidates;
    assert.equal(wrong.verified, false);
    assert.equal(wrong.stage, 'failing-tests', "its head start was dropped unread: stage 1's verdict");
    assert.equal(larger.verified, true, r.stderr);
    assert.deepEqual(larger.reachingTests, { ran: 3, cannotReach: 2, note: 'verified on the 3 tests that reach this change (the other 2 cannot)' });
    assert.equal(larger.tests.passed, 3, 'test_words.py and test_plain.py did not run');
    assert.equal(top.verified, true);
    assert.equal(top.reachingTests, undefined, 'the top-ranked fix is verified on everything');
    assert.equal(top.tests.passed, 5, 'its last run was the full suite');
    assert.deepEqual(top.runs, ['pass', 'pass'], 'the reaching tests, then the full suite');
  });

  it("the first candidate's head start runs the whole command beside the baseline: verified on everything, in one full run", async () => {
    const { r, json } = await fix(CANDIDATES, '5-5');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /candidate #1's full run starts beside the baseline, on a slot the baseline leaves idle/);
    const [top, larger] = json.candidates;
    assert.equal(top.verified, true, r.stderr);
    assert.equal(top.reachingTests, undefined, 'never narrowed');
    assert.equal(top.tests.passed, 5);
    assert.deepEqual(top.runs, ['pass'], 'its head start, and no second full run for the top fix');
    assert.deepEqual(larger.reachingTests?.ran, 3, 'the second candidate runs the reaching tests');
  });

  it('a candidate that breaks a test reaching the target through a helper fails', async () => {
    const body = (low: string) => `    if x < lo:\n        return ${low}\n    if x > hi:\n        return hi`;
    const { r, json } = await fix([body('hi'), body('lo')], '2-5');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(json.candidates[0].verified, false);
    assert.match(json.candidates[0].reason, /broke: tests\/test_bounds\.py::test_low/);
    assert.equal(json.candidates[1].verified, true, r.stderr);
  });

  it('an edit of top-level code runs the full command, and the log says why', async () => {
    const { r, json } = await fix(['def double(x):\n    return x + x'], '9-10');
    assert.match(r.stderr, /reaching tests: none selected \(the selection is not inside the body of a function/);
    for (const c of json.candidates) assert.equal(c.reachingTests, undefined);
  });
});
