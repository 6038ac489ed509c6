// `python3 -m unittest` for real, through the engine's runner script: per-test outcomes with the user's output kept,
// a selection by id, staged verification through the CLI, and the guard on unittest's assertions (#25 item 4).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resolveRunner } from '../../../src/core/testCommand/runner';
import type { TestResult } from '../../../src/core/testResults/types';
import { unittestAdapter } from '../../../src/core/testResults/unittest';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const made: string[] = [tempRoot];
after(() => remove(...made));

const BUGGY = 'def add(a, b):\n    return a - b\n';
const TESTS = [
  'import unittest',
  'from calc import add',
  '',
  'class Add(unittest.TestCase):',
  '    def test_two(self):',
  '        self.assertEqual(add(2, 2), 4)',
  '    def test_zero(self):',
  '        self.assertEqual(add(0, 0), 0)',
  '    def test_left_zero(self):',
  '        for i in range(3):',
  '            with self.subTest(i=i):',
  '                self.assertEqual(add(0, i), i)',
  '    def test_right_zero(self):',
  '        for i in range(3):',
  '            with self.subTest(i=i):',
  '                self.assertEqual(add(i, 0), i)',
  "    @unittest.skip('later')",
  '    def test_later(self):',
  '        pass',
  '    @unittest.expectedFailure',
  '    def test_known(self):',
  '        self.assertEqual(1, 2)',
  '',
].join('\n');

/** `calc.py` and tests/ discovered with `-s tests` (the start folder goes on sys.path, so `tests` is no package). */
function project(extra: Record<string, string> = {}): string {
  const ws = makeWorkspace({ 'calc.py': BUGGY, 'tests/test_calc.py': TESTS, ...extra }, { git: true });
  made.push(ws);
  return ws;
}

const BASE = 'python3 -m unittest discover -s tests';

/** The adapter's command run in `cwd` as the engine runs it, and its report read back. */
function run(cwd: string, only?: readonly string[]): { results: TestResult[]; status: number | null; output: string } {
  const folder = mkdtempSync(join(tmpdir(), 'vf-unittest-'));
  made.push(folder);
  for (const [name, text] of Object.entries(unittestAdapter.outputFiles ?? {})) writeFileSync(join(folder, name), text);
  const report = join(folder, 'report');
  const command = unittestAdapter.command(BASE, report, only, folder);
  assert.ok(command);
  const child = spawnSync('/bin/sh', ['-c', command], { cwd, encoding: 'utf8', timeout: 120_000 });
  const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
  return { results: unittestAdapter.parse(text, cwd), status: child.status, output: `${command}\n${child.stdout}${child.stderr}` };
}

const outcomes = (results: readonly TestResult[]) => results.map((r) => `${r.outcome} ${r.id}`).sort();

describe('python3 -m unittest, for real', () => {
  it('npm test and the bare command resolve to the unittest adapter, the command as written', () => {
    const ws = project({ 'package.json': JSON.stringify({ private: true, scripts: { test: BASE } }) });
    for (const command of ['npm test', BASE]) {
      const resolved = resolveRunner(ws, command);
      assert.ok('adapter' in resolved, JSON.stringify(resolved));
      assert.deepEqual([resolved.adapter.name, resolved.base], ['unittest', BASE]);
    }
  });

  it('a full run reports each test by file, class and method, and prints what unittest prints', () => {
    const { results, status, output } = run(project({ 'tests/test_broken.py': 'import not_a_module\n' }));
    assert.equal(status, 1, output);
    assert.deepEqual(outcomes(results), [
      'failed tests/test_broken.py',
      // Two of its subtests failed.
      'failed tests/test_calc.py > Add > test_left_zero',
      'failed tests/test_calc.py > Add > test_two',
      'passed tests/test_calc.py > Add > test_right_zero',
      'passed tests/test_calc.py > Add > test_zero',
      // An expected failure did not pass: skipped, as unittest's own summary counts it.
      'skipped tests/test_calc.py > Add > test_known',
      'skipped tests/test_calc.py > Add > test_later',
    ], output);
    assert.match(results.find((r) => r.id.endsWith('test_two'))?.message ?? '', /AssertionError: 0 != 4/);
    assert.match(results.find((r) => r.id === 'tests/test_broken.py')?.message ?? '', /No module named 'not_a_module'/);
    // The user's own output: the summary the engine reads as the second witness.
    assert.match(output, /^Ran 7 tests in /m);
    assert.match(output, /^FAILED \(failures=3, errors=1, skipped=1, expected failures=1\)$/m);
  });

  it('only the listed ids run (a listed file runs all of its tests)', () => {
    const ws = project({ 'tests/test_other.py': 'import unittest\n\nclass Other(unittest.TestCase):\n    def test_ok(self):\n        pass\n' });
    const one = run(ws, ['tests/test_calc.py > Add > test_two']);
    assert.deepEqual(outcomes(one.results), ['failed tests/test_calc.py > Add > test_two'], one.output);
    assert.match(one.output, /^Ran 1 test in /m);
    const file = run(ws, ['tests/test_other.py']);
    assert.deepEqual(outcomes(file.results), ['passed tests/test_other.py > Other > test_ok'], file.output);
  });

  it('the CLI verifies in stages; a candidate that replaces assertEqual by a computed name, or returns an object that equals anything, fails as the bug does', async () => {
    const ws = project();
    const candidates = [
      'def add(a, b):\n    return a + b if a != 1 else 0',
      // Not read by the static check: the name is built at run time.
      "def add(a, b):\n    import unittest as _u\n    setattr(_u.TestCase, 'assert' + 'Equal', lambda *a, **k: None)\n    return a - b",
      // An object that equals anything, its __eq__ named at run time.
      "def add(a, b):\n    return type('Sum', (), {'__e' + 'q__': lambda s, o: True})()",
      'def add(a, b):\n    return a + b',
    ];
    const list = join(tempRoot, 'candidates.json');
    writeFileSync(list, JSON.stringify(candidates));
    const r = await runCli(['fix', '--workspace', ws, '--file', 'calc.py', '--lines', '1-2', '--candidates', list, '--test', BASE,
      '--k', '1', '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'off', '--json'], { env: { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot } });
    assert.equal(r.exitCode, 0, `${r.stderr}\n${r.stdout}`);
    const json = JSON.parse(r.stdout);
    assert.equal(json.baseline.perTest, true, r.stderr);
    assert.deepEqual(json.baseline.failingTests, ['tests/test_calc.py > Add > test_left_zero', 'tests/test_calc.py > Add > test_two'], r.stderr);
    assert.deepEqual(json.verified, [3], r.stderr);
    const [breaks, patched, equal, right] = json.candidates;
    assert.equal(breaks.stage, 'full');
    assert.match(breaks.reason, /^broke: tests\/test_calc\.py > Add > test_right_zero/);
    assert.equal(patched.stage, 'failing-tests');
    assert.match(patched.reason, /^still failing: .*tests\/test_calc\.py > Add > test_two/);
    assert.equal(equal.stage, 'failing-tests');
    assert.match(equal.reason, /^still failing: .*tests\/test_calc\.py > Add > test_two/);
    assert.equal(right.verified, true);
  });
});
