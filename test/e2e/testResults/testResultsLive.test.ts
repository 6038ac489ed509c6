// Real runs of the node and pytest adapters' commands: full, then only the failing ids, which must be exactly what runs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { diffAgainstBaseline, failingIds } from '../../../src/core/testResults/compare';
import { resolveRunner } from '../../../src/core/testCommand/runner';
import { nodeAdapter } from '../../../src/core/testResults/node';
import { pytestAdapter } from '../../../src/core/testResults/pytest';
import type { RunnerAdapter, TestResult } from '../../../src/core/testResults/types';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const ODD = `it's "quoted" $HOME (a|b) [x]* \\ ok`;
const cleanup: string[] = [];
after(() => remove(...cleanup));

/** Runs the adapter's command in `cwd` as the engine would (`/bin/sh -c`) and parses the report it wrote. */
function run(adapter: RunnerAdapter, base: string, cwd: string, only?: readonly string[]): { results: TestResult[]; status: number | null; output: string } {
  const folder = mkdtempSync(join(tmpdir(), 'vf-report-'));
  cleanup.push(folder);
  const report = join(folder, 'report');
  for (const [name, text] of Object.entries(adapter.outputFiles ?? {})) writeFileSync(join(folder, name), text);
  const command = adapter.command(base, report, only, folder);
  assert.ok(command, 'the adapter could not express the run');
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  // Set inside every file node --test runs; a nested node --test that inherits it reports to its parent instead.
  delete env.NODE_TEST_CONTEXT;
  const child = spawnSync('/bin/sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
  return { results: adapter.parse(text, cwd), status: child.status, output: `${child.stdout}${child.stderr}` };
}

const ran = (results: readonly TestResult[]) => results.filter((r) => r.outcome !== 'skipped').map((r) => r.id).sort();

describe('node --test, for real', () => {
  const test = (lines: string[]) => ["const { describe, it } = require('node:test');", "const assert = require('node:assert');", ...lines, ''].join('\n');
  const dir = makeWorkspace({
    'package.json': JSON.stringify({ scripts: { test: 'node --test' } }),
    'range.js': 'module.exports = (x, lo, hi) => x >= lo && x < hi;\n',
    'test/range.test.js': test([
      "const inRange = require('../range');",
      "describe('inRange', () => {",
      "  it('includes lo', () => assert.ok(inRange(1, 1, 3)));",
      "  it('includes hi', () => assert.ok(inRange(3, 1, 3)));",
      "  it('later', { skip: 'not yet' }, () => {});",
      '});',
    ]),
    // Near misses of the odd name: each would be selected if quoting or regex escaping were wrong.
    'test/names.test.js': test([
      "describe('odd names', () => {",
      `  it(${JSON.stringify(ODD)}, () => assert.fail('odd'));`,
      `  it(${JSON.stringify(`${ODD}!`)}, () => {});`,
      "  it('b', () => {});",
      "  it('$HOME', () => {});",
      '});',
    ]),
    'test/other.test.js': test(["it('top level', () => {});"]),
  });
  cleanup.push(dir);
  const resolved = resolveRunner(dir, 'npm test');
  assert.ok('adapter' in resolved && resolved.adapter === nodeAdapter && resolved.base === 'node --test');
  const failing = ['test/names.test.js > odd names > ' + ODD, 'test/range.test.js > inRange > includes hi'];

  it('a full run reports every test, with the failing ones', () => {
    const { results, status, output } = run(nodeAdapter, resolved.base, dir);
    assert.equal(status, 1, output);
    assert.deepEqual(failingIds(results).sort(), failing);
    assert.deepEqual(results.filter((r) => r.outcome === 'skipped').map((r) => r.id), ['test/range.test.js > inRange > later']);
    assert.equal(ran(results).length, 7);
    assert.match(output, /ℹ fail 2/, 'the spec reporter still writes to stdout');
  });

  it('only the failing ids: exactly those run, and other files are not loaded', () => {
    const { results, output } = run(nodeAdapter, resolved.base, dir, failing);
    assert.deepEqual(ran(results), failing, output);
    assert.ok(!results.some((r) => r.id.startsWith('test/other.test.js')));
  });

  it('only the oddly named id, alone', () => {
    assert.deepEqual(ran(run(nodeAdapter, resolved.base, dir, [failing[0]]).results), [failing[0]]);
  });

  it('after a fix, the selective run shows it fixed and the full run shows nothing broken', () => {
    const baseline = run(nodeAdapter, resolved.base, dir).results;
    writeFileSync(join(dir, 'range.js'), 'module.exports = (x, lo, hi) => x >= lo && x <= hi;\n');
    const selective = diffAgainstBaseline(baseline, run(nodeAdapter, resolved.base, dir, failingIds(baseline)).results);
    assert.deepEqual(selective.fixed, ['test/range.test.js > inRange > includes hi']);
    assert.deepEqual(selective.stillFailing, ['test/names.test.js > odd names > ' + ODD]);
    assert.deepEqual([selective.missing, selective.broke, selective.ranCount], [[], [], 2]);
    const full = diffAgainstBaseline(baseline, run(nodeAdapter, resolved.base, dir).results);
    assert.deepEqual([full.broke, full.vanished, full.passed, full.failed], [[], [], 6, 1]);
  });
});

const python = spawnSync('python3', ['-c', 'import pytest'], { encoding: 'utf8' });
const noPytest = python.status === 0 ? false : 'SKIPPED LOUDLY: python3 with pytest is not available here, so the pytest adapter ran against captured reports only';
if (noPytest) console.warn(`\n*** ${noPytest} ***\n`);

describe('pytest, for real', { skip: noPytest }, () => {
  // pytest's node id escapes the parameter's backslash (it makes ids ASCII and printable).
  const odd = `tests/test_names.py::test_odd[${ODD.replace(/\\/g, '\\\\')}]`;
  const failing = [odd, 'tests/test_range.py::TestInRange::test_includes_hi'];
  let dir = '';
  const workspace = () => {
    if (dir) return dir;
    dir = makeWorkspace({
      'rng.py': 'def in_range(x, lo, hi):\n    return lo <= x < hi\n',
      'tests/test_range.py': [
        'import pytest',
        'from rng import in_range',
        '',
        'class TestInRange:',
        '    def test_includes_lo(self):',
        '        assert in_range(1, 1, 3)',
        '',
        '    def test_includes_hi(self):',
        '        assert in_range(3, 1, 3)',
        '',
        '    @pytest.mark.skip(reason="not yet")',
        '    def test_later(self):',
        '        pass',
        '',
      ].join('\n'),
      'tests/test_names.py': [
        'import pytest',
        '',
        `@pytest.mark.parametrize("name", [${JSON.stringify(ODD)}, ${JSON.stringify(`${ODD}!`)}, "b"])`,
        'def test_odd(name):',
        `    assert name != ${JSON.stringify(ODD)}`,
        '',
      ].join('\n'),
      'tests/conftest.py': 'import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n',
    });
    cleanup.push(dir);
    return dir;
  };
  const base = 'python3 -m pytest -q';

  it('a full run reports every test, with the failing ones, and writes no .pytest_cache', () => {
    const { results, status, output } = run(pytestAdapter, base, workspace());
    assert.equal(status, 1, output);
    assert.deepEqual(failingIds(results).sort(), failing);
    assert.deepEqual(results.filter((r) => r.outcome === 'skipped').map((r) => r.id), ['tests/test_range.py::TestInRange::test_later']);
    assert.equal(ran(results).length, 5);
    assert.ok(!existsSync(join(workspace(), '.pytest_cache')));
  });

  it('only the failing ids: exactly those run', () => {
    const { results, output } = run(pytestAdapter, base, workspace(), failing);
    assert.deepEqual(ran(results), failing, output);
  });

  it('only the oddly named id, alone', () => {
    assert.deepEqual(ran(run(pytestAdapter, base, workspace(), [odd]).results), [odd]);
  });
});
