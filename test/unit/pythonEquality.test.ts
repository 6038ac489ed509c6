// Objects that equal anything (pythonEquality.ts), in a real pytest and a real `python -m unittest` through the
// engine's runner script: which classes count, and which a project may have.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pytestAdapter } from '../../src/core/testResults/pytest';
import { unittestAdapter } from '../../src/core/testResults/unittest';
import { PYTEST_PLUGIN_MODULE, PYTEST_PLUGIN_SOURCE, PYTEST_REPORT_VARIABLE } from '../../src/core/testResults/pytestPlugin';
import { UNITTEST_REPORT_VARIABLE, UNITTEST_RUNNER_FILE, UNITTEST_RUNNER_SOURCE } from '../../src/core/testResults/unittestRunner';
import { makeWorkspace, remove } from './helpers/workspace';

const pytestAvailable = spawnSync('python3', ['-c', 'import pytest']).status === 0;
const made: string[] = [];
after(() => remove(...made));

// The project's code: honest classes (their own __eq__, a dataclass), a wildcard made when the module loads (a
// library's ANY), and functions that make objects that equal anything while a test runs, their names built at run time.
const CODE = [
  'import dataclasses',
  '',
  'class Point:',
  '    def __init__(self, x):',
  '        self.x = x',
  '    def __eq__(self, other):',
  '        return isinstance(other, Point) and other.x == self.x',
  '',
  '@dataclasses.dataclass',
  'class Pair:',
  '    a: int',
  '    b: int',
  '',
  "ANY = type('Any', (), {'__eq__': lambda s, o: True})()",
  '',
  'def honest(x):',
  '    class Box:',
  '        def __init__(self, v):',
  '            self.v = v',
  '        def __eq__(self, other):',
  '            return isinstance(other, Box) and other.v == self.v',
  '    return Box(x), Box(x)',
  '',
  'def made():',
  '    class E:',
  '        pass',
  "    setattr(E, '__e' + 'q__', lambda s, o: True)",
  '    return E()',
  '',
  'def typed():',
  "    return type('T', (), {'__e' + 'q__': lambda s, o: True})()",
  '',
  'def patched():',
  "    setattr(Point, '__e' + 'q__', lambda s, o: True)",
  '    return Point(0)',
  '',
].join('\n');

function workspace(tests: string): string {
  const ws = makeWorkspace({ 'calc.py': CODE, 'test_calc.py': tests });
  made.push(ws);
  return ws;
}

/** The outcome of each test, by its last name: "name outcome". */
const outcomes = (results: ReadonlyArray<{ id: string; outcome: string }>) => results.map((r) => `${r.id.split(/::| > /).pop()} ${r.outcome}`);

function pytest(tests: string): string[] {
  const ws = workspace(tests);
  writeFileSync(join(ws, `${PYTEST_PLUGIN_MODULE}.py`), PYTEST_PLUGIN_SOURCE);
  const report = join(ws, 'report.jsonl');
  const r = spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-p', PYTEST_PLUGIN_MODULE, 'test_calc.py'], { cwd: ws, env: { ...process.env, PYTHONPATH: ws, [PYTEST_REPORT_VARIABLE]: report }, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stdout + r.stderr);
  return outcomes(pytestAdapter.parse(readFileSync(report, 'utf8'), ws));
}

function unittest(tests: string): { outcomes: string[]; messages: string[] } {
  const ws = workspace(tests);
  writeFileSync(join(ws, UNITTEST_RUNNER_FILE), UNITTEST_RUNNER_SOURCE);
  const report = join(ws, 'report.jsonl');
  const r = spawnSync('python3', [UNITTEST_RUNNER_FILE, 'test_calc'], { cwd: ws, env: { ...process.env, [UNITTEST_REPORT_VARIABLE]: report }, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stdout + r.stderr);
  const results = unittestAdapter.parse(readFileSync(report, 'utf8'), ws);
  return { outcomes: outcomes(results), messages: results.map((t) => t.message ?? '') };
}

const PLAIN = [
  'import calc',
  '',
  'def test_1_honest():',
  '    assert calc.Point(1) == calc.Point(1) and calc.Pair(1, 2) == calc.Pair(1, 2) and (lambda a, b: a == b)(*calc.honest(3))',
  '',
  'def test_2_library_wildcard():',
  '    assert calc.ANY == 3',
  '',
  'def test_3_made():',
  '    assert calc.made() == 42',
  '',
  'def test_4_after():',
  '    assert 1 == 1',
  '',
].join('\n');

describe('objects that equal anything (a real pytest)', { skip: !pytestAvailable && 'needs pytest' }, () => {
  it('fail the test that made one and every test after it; honest classes and a wildcard made at load pass', () => {
    assert.deepEqual(pytest(PLAIN), ['test_1_honest passed', 'test_2_library_wildcard passed', 'test_3_made failed', 'test_4_after failed']);
  });

  it('count a class made by type() and an __eq__ replaced on a class of the project while a test ran', () => {
    const typed = PLAIN.replace('calc.made()', 'calc.typed()');
    assert.deepEqual(pytest(typed).slice(2), ['test_3_made failed', 'test_4_after failed']);
    const patched = PLAIN.replace('calc.made()', 'calc.patched()');
    assert.deepEqual(pytest(patched).slice(2), ['test_3_made failed', 'test_4_after failed']);
  });
});

describe('objects that equal anything (python -m unittest, the engine\'s script)', () => {
  it('fail the test that made one and the tests after it, naming the class; honest classes pass', () => {
    const tests = [
      'import unittest, calc',
      '',
      'class T(unittest.TestCase):',
      '    def test_1_honest(self):',
      '        self.assertEqual(calc.Point(1), calc.Point(1))',
      '        self.assertEqual(*calc.honest(2))',
      '    def test_2_library_wildcard(self):',
      '        self.assertEqual(calc.ANY, 3)',
      '    def test_3_typed(self):',
      '        self.assertEqual(calc.typed(), 42)',
      '    def test_4_after(self):',
      '        self.assertEqual(1, 1)',
      '',
    ].join('\n');
    const run = unittest(tests);
    assert.deepEqual(run.outcomes, ['test_1_honest passed', 'test_2_library_wildcard passed', 'test_3_typed failed', 'test_4_after failed']);
    assert.match(run.messages[2], /made objects that equal anything \(T \(calc\.py\)\)/);
  });
});
