// The behaviour check on Python through the built CLI, with real pytest and unittest runs: two verified fixes that
// differ (the distinguishing input named, and true of the fixes), two that agree on every input tried, an instance
// method replayed with its pickled self, a function whose arguments cannot be pickled, and the user's files untouched.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { candidatesFile, PY_NEGATED as NEGATED, PY_PAGES as PAGES, PY_PAGES_TESTS as PAGES_TESTS, PY_ROUND_UP as ROUND_UP, PYTEST } from '../../unit/helpers/behaviourFixtures';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const made: string[] = [];
after(() => remove(tempRoot, ...made));


function workspace(files: Record<string, string>): string {
  const ws = makeWorkspace({ 'pytest.ini': '[pytest]\npythonpath = src\n', ...files }, { git: true });
  made.push(ws);
  return ws;
}

async function fix(ws: string, file: string, lines: string, candidates: string[], test = PYTEST, human = true) {
  const list = candidatesFile(ws, candidates, made);
  const args = ['fix', '--workspace', ws, '--file', file, '--lines', lines, '--candidates', list, '--k', '1', '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'quick', '--test', test];
  const json = await runCli([...args, '--json'], { env });
  assert.equal(json.exitCode, 0, json.stderr);
  const text = human ? await runCli(args, { env }) : undefined;
  return { stdout: text?.stdout ?? '', json: JSON.parse(json.stdout) };
}

/** Python's floor division, to check a reported input against. */
const floorDiv = (a: number, b: number) => (b === 0 ? 'throws ZeroDivisionError: integer division or modulo by zero' : String(Math.floor(a / b)));
const fixes = {
  negated: (items: number, perPage: number) => (perPage === 0 ? floorDiv(1, 0) : String(-Math.floor(-items / perPage))),
  roundUp: (items: number, perPage: number) => floorDiv(items + perPage - 1, perPage),
};

describe('the behaviour check (Python)', () => {
  it('names an input on which two verified fixes differ (pytest), and what each changes beyond the failing tests', async () => {
    const ws = workspace({ 'src/pages.py': PAGES, 'tests/test_pages.py': PAGES_TESTS });
    const before = fingerprint(ws);
    const { stdout, json } = await fix(ws, 'src/pages.py', '2-2', [NEGATED, ROUND_UP]);
    assert.deepEqual(json.verified, [0, 1]);
    const b = json.behaviour;
    assert.equal(b.status, 'compared', JSON.stringify(b));
    assert.equal(b.function, 'page_count');
    assert.equal(b.observed, 2, 'page_count(11, 5) and page_count(10, 5)');
    assert.equal(b.failingTestInputs, 1);
    assert.equal(b.observed + b.generated, 300);
    assert.deepEqual(b.groups, [[0], [1]]);
    const [pair] = b.pairs;
    assert.ok(pair.differing > 0 && pair.examples.length > 0, JSON.stringify(pair));
    // Each distinguishing input is real: the two fixes give the outcomes shown.
    for (const example of pair.examples) {
      const [, items, perPage] = /^page_count\((-?\d+), (-?\d+)\)$/.exec(example.call) ?? [];
      assert.ok(items !== undefined, example.call);
      assert.equal(example.first, fixes.negated(Number(items), Number(perPage)), example.call);
      assert.equal(example.second, fixes.roundUp(Number(items), Number(perPage)), example.call);
    }
    assert.ok(stdout.includes(`2 fixes pass; they differ on ${pair.examples[0].call}.`), stdout);
    assert.match(stdout, /behaviour check \(page_count\): 2 fixes, 2 behaviours on 300 inputs tried \(2 from the tests, 298 generated near them\): #1 \| #2/);
    assert.match(stdout, /fix #1: besides the failing tests, this fix changes the result on \d+ of 300 inputs tried, e\.g\. page_count\(\d+, \d+\): before \d+, after \d+/);
    assert.deepEqual(fingerprint(ws), before, 'recording and replay happen in the engine\'s own copies only');
  });

  it('says two fixes agree on every input tried (unittest), and replays a method with its pickled self', async () => {
    const age = 'def is_adult(age):\n    return age > 18\n';
    const tests = 'import unittest\nfrom age import is_adult\n\nclass AgeTest(unittest.TestCase):\n    def test_18(self):\n        self.assertTrue(is_adult(18))\n\n    def test_12(self):\n        self.assertFalse(is_adult(12))\n';
    const ws = workspace({ 'age.py': age, 'test_age.py': tests });
    const { stdout, json } = await fix(ws, 'age.py', '2-2', ['    return age >= 18', '    return age > 17'], 'python3 -m unittest');
    assert.equal(json.behaviour.status, 'compared', JSON.stringify(json.behaviour));
    assert.deepEqual(json.behaviour.groups, [[0, 1]]);
    assert.match(stdout, /2 fixes pass and behave the same on all \d+ inputs tried\./);

    const stats = 'class Stats:\n    def __init__(self, values):\n        self.values = values\n\n    def median(self):\n        s = sorted(self.values)\n        return s[len(s) // 2]\n';
    const statsTests = 'from stats import Stats\n\ndef test_odd():\n    assert Stats([3, 1, 2]).median() == 2\n\ndef test_even():\n    assert Stats([1, 3, 5, 9]).median() == 4\n';
    const even = '        return s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2';
    const same = '        return s[(len(s) - 1) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2';
    const method = await fix(workspace({ 'src/stats.py': stats, 'tests/test_stats.py': statsTests }), 'src/stats.py', '7-7', [even, same], PYTEST, false);
    const m = method.json.behaviour;
    assert.equal(m.function, 'Stats.median');
    assert.equal(m.status, 'compared', JSON.stringify(m));
    assert.deepEqual(m.groups, [[0, 1]]);
    // Beyond the failing test: an even-length list other than the tests' own, found by nudging self.values.
    assert.ok(m.fixes[0].changedBeyondFailingTests > 0, JSON.stringify(m.fixes[0]));
    assert.match(m.fixes[0].examples[0].call, /^Stats\.median\(\) on Stats\(values=\[.*\]\)$/);
  });

  it('says plainly when the function cannot be replayed: an argument that cannot be pickled', async () => {
    const total = 'def total(items, price):\n    return sum(price(item) for item in items) + 1\n';
    const tests = 'from total import total\n\ndef test_sums():\n    assert total([1, 2], lambda x: x * 2) == 6\n';
    const ws = workspace({ 'src/total.py': total, 'tests/test_total.py': tests });
    const { stdout, json } = await fix(ws, 'src/total.py', '2-2', ['    return sum(price(item) for item in items)']);
    assert.equal(json.behaviour.status, 'notReplayable', JSON.stringify(json.behaviour));
    assert.match(json.behaviour.reason, /its arguments cannot be copied \(.*(pickle|lambda)/i);
    assert.match(stdout, /behaviour check: total is not replayable: its arguments cannot be copied/);
  });
});
