// pytest's reaching tests: the function body a selection lies in, the reach from a record of imports, and the record
// the report plugin writes in a real pytest run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pytestAdapter } from '../../src/core/testResults/pytest';
import { PYTEST_PLUGIN_MODULE, PYTEST_PLUGIN_SOURCE } from '../../src/core/testResults/pytestPlugin';
import { PYTEST_LOADS_VARIABLE } from '../../src/core/testResults/pytestLoads';
import type { TestResult } from '../../src/core/testResults/types';
import type { PerTestPlan } from '../../src/core/verification/stagedVerification';
import { pythonFunctionBody, reachFromPytestLoads } from '../../src/core/localisation/pytestReach';
import { makeWorkspace, remove } from './helpers/workspace';

const pytestAvailable = spawnSync('python3', ['-c', 'import pytest']).status === 0;
const made: string[] = [];
after(() => remove(...made));

const calc = 'LIMIT = 10\n\n\ndef clamp(x, lo, hi):\n    if x > hi:\n        return lo\n    return x\n\n\ndef scaled(x, factor=LIMIT,\n           offset=0):\n    return x * factor\n';
const line = (n: number) => calc.split('\n').slice(0, n - 1).join('\n').length + (n > 1 ? 1 : 0);

describe('pythonFunctionBody', () => {
  it('places body lines, and refuses the def line, a multi-line header and the top level', async () => {
    const body = await pythonFunctionBody(calc, line(5), line(7));
    assert.deepEqual(body, { start: line(5), end: line(8) });
    assert.equal(await pythonFunctionBody(calc, line(4), line(6)), undefined, 'the def line');
    assert.equal(await pythonFunctionBody(calc, line(11), line(12)), undefined, 'a continuation of the header: its defaults run at load');
    assert.deepEqual(await pythonFunctionBody(calc, line(12), line(13)), { start: line(12), end: calc.length });
    assert.equal(await pythonFunctionBody(calc, line(1), line(2)), undefined, 'top-level code');
  });
});

const results = (ids: string[]): TestResult[] => ids.map((id, i) => ({ id, outcome: i === 0 ? 'failed' : 'passed' }));
const plan = (ids: string[]): PerTestPlan => ({ adapter: pytestAdapter, base: 'pytest', baseline: results(ids), failing: [ids[0]], baselineRan: ids.length });
const IDS = ['tests/test_clamp.py::test_caps', 'tests/test_clamp.py::TestMore::test_keeps[1]', 'tests/test_bounds.py::test_low', 'tests/test_words.py::test_shout'];
const edges = (...pairs: string[]) => pairs.map((p) => p.replace(' ', '\t')).join('\n');
const self = (...files: string[]) => files.map((f) => `${f} ${f}`);
const reach = (loads: string, ids = IDS) => reachFromPytestLoads(loads, plan(ids), 'calc.py', calc, line(5), line(7));

describe('reachFromPytestLoads', () => {
  it('keeps the tests of the files that import the target, directly or through a helper', async () => {
    const r = await reach(edges(...self('tests/test_clamp.py', 'tests/test_bounds.py', 'tests/test_words.py'), 'tests/test_clamp.py calc.py', 'tests/test_bounds.py tests/helper.py', 'tests/helper.py calc.py', 'tests/test_words.py words.py'));
    assert.ok('ids' in r, JSON.stringify(r));
    assert.deepEqual(r.ids, IDS.slice(0, 3));
    assert.equal(r.byLoads, true);
  });

  it('counts a file under a conftest.py that imports the target as reaching (its fixtures are the file\'s)', async () => {
    const r = await reach(edges(...self('tests/test_clamp.py', 'tests/test_bounds.py', 'other/test_words.py'), 'tests/test_clamp.py calc.py', 'tests/conftest.py calc.py', 'other/test_words.py words.py'), [IDS[0], IDS[2], 'other/test_words.py::test_shout']);
    assert.ok('ids' in r, JSON.stringify(r));
    assert.deepEqual(r.ids, [IDS[0], IDS[2]]);
  });

  it('runs the full command when a file that does not import the target shares a project module with one that does', async () => {
    const r = await reach(edges(...self('tests/test_clamp.py', 'tests/test_bounds.py', 'tests/test_words.py'), 'tests/test_clamp.py pkg/__init__.py', 'tests/test_clamp.py calc.py', 'tests/test_words.py pkg/__init__.py'));
    assert.match('problem' in r ? r.problem : '', /tests\/test_words\.py does not load the target but shares pkg\/__init__\.py/);
  });

  it('runs the full command without a record, or for a file that left none, or a selection outside a body', async () => {
    const none = await reach('');
    assert.match('problem' in none ? none.problem : '', /left no record/);
    const partial = await reach(edges(...self('tests/test_clamp.py', 'tests/test_bounds.py'), 'tests/test_clamp.py calc.py'));
    assert.match('problem' in partial ? partial.problem : '', /no record of what tests\/test_words\.py/);
    const top = await reachFromPytestLoads(edges('tests/test_clamp.py calc.py'), plan(IDS), 'calc.py', calc, 0, line(2));
    assert.match('problem' in top ? top.problem : '', /not inside the body of a function/);
  });
});

describe('the report plugin\'s record of imports (a real pytest)', { skip: !pytestAvailable && 'needs pytest' }, () => {
  it('records each file\'s imports, cached ones and those through a helper, and every collected test file', () => {
    const ws = makeWorkspace({
      'calc.py': calc,
      'words.py': 'def shout(s):\n    return s.upper()\n',
      'pytest.ini': '[pytest]\npythonpath = .\n',
      'tests/helper.py': 'from calc import clamp\n\n\ndef low():\n    return clamp(-5, 0, 10)\n',
      'tests/test_clamp.py': 'import calc\n\n\ndef test_caps():\n    assert calc.clamp(5, 0, 10) == 5\n',
      'tests/test_bounds.py': 'from helper import low\n\n\ndef test_low():\n    assert low() == -5\n',
      'tests/test_words.py': 'from words import shout\n\n\ndef test_shout():\n    assert shout("a") == "A"\n',
      'tests/test_plain.py': 'def test_plain():\n    assert 1 + 1 == 2\n',
    });
    made.push(ws);
    writeFileSync(join(ws, `${PYTEST_PLUGIN_MODULE}.py`), PYTEST_PLUGIN_SOURCE);
    const loads = join(ws, 'loads.txt');
    const r = spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-p', PYTEST_PLUGIN_MODULE], { cwd: ws, env: { ...process.env, PYTHONPATH: ws, [PYTEST_LOADS_VARIABLE]: loads }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const lines = new Set(readFileSync(loads, 'utf8').trim().split('\n'));
    for (const edge of ['tests/test_clamp.py\tcalc.py', 'tests/test_bounds.py\ttests/helper.py', 'tests/helper.py\tcalc.py', 'tests/test_words.py\twords.py', 'tests/test_plain.py\ttests/test_plain.py']) {
      assert.ok(lines.has(edge), `${edge} in:\n${[...lines].join('\n')}`);
    }
    const plainLoads = [...lines].filter((l) => l.startsWith('tests/test_plain.py\t')).map((l) => l.split('\t')[1]);
    assert.deepEqual(plainLoads.filter((f) => !f.startsWith('..') && !f.startsWith('/')), ['tests/test_plain.py'], 'the plain file imports nothing of the project (pytest\'s own modules are outside it)');
  });
});
