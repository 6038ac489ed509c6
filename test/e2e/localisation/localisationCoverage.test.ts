// Per-test coverage from real runs: node under NODE_V8_COVERAGE turned into line hits, and the pytest plugin under pytest.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PLUGIN_MODULE, PLUGIN_SOURCE, pytestSpectra, readPytestReports, withPlugin } from '../../../src/core/localisation/pytestCoverage';
import { readV8Reports, v8LineHits } from '../../../src/core/localisation/v8Coverage';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vf-cov-'));
  made.push(dir);
  return dir;
};

const classifyJs = [
  'function classify(n) {', //  1
  '  if (n < 0) {', //          2
  "    return 'negative';", //  3
  '  }', //                     4
  '  if (n === 0) {', //        5
  "    return 'zero';", //      6
  '  }', //                     7
  '  if (n > 100) {', //        8
  "    return 'big' + '!';", // 9
  '  }', //                     10
  "  return 'small';", //       11
  '}', //                       12
  'module.exports = { classify };', // 13
  '',
].join('\n');

const classifyTest = [
  "const test = require('node:test');",
  "const assert = require('node:assert/strict');",
  "const { classify } = require('../src/classify');",
  "test('negative', () => assert.equal(classify(-1), 'negative'));",
  "test('small', () => assert.equal(classify(5), 'small'));",
  "test('big', () => assert.equal(classify(500), 'big'));",
  '',
].join('\n');

/** Runs one test of the workspace alone under NODE_V8_COVERAGE and returns the folder node wrote to. */
function coverageOf(ws: string, name: string): string {
  const out = folder();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_V8_COVERAGE: out };
  delete env.NODE_TEST_CONTEXT;
  spawnSync(process.execPath, ['--test', `--test-name-pattern=^${name}$`, 'test/'], { cwd: ws, env, encoding: 'utf8' });
  return out;
}

describe('V8 coverage to line hits (a real node --test run)', () => {
  const ws = makeWorkspace({ 'src/classify.js': classifyJs, 'test/classify.test.js': classifyTest, 'src/esm.mjs': 'export const f = (x) =>\n  x > 0\n    ? 1\n    : 2;\n' });
  made.push(ws);

  it('gives each test the lines it ran: branches taken, not the blocks skipped', async () => {
    const big = v8LineHits(await readV8Reports(coverageOf(ws, 'big')), 'src/classify.js', classifyJs);
    // `if (…) {` ran though its block did not. A line of closing brackets alone never counts: V8's zero-count range
    // after an early return ends before them, and nothing on such a line can be the bug.
    assert.deepEqual([...(big ?? [])].sort((a, b) => a - b), [1, 2, 5, 8, 9, 13]);
    const small = v8LineHits(await readV8Reports(coverageOf(ws, 'small')), 'src/classify.js', classifyJs);
    assert.deepEqual([...(small ?? [])].sort((a, b) => a - b), [1, 2, 5, 8, 11, 13]);
  });

  it('refuses a script that is not the file as written (a transform moved the offsets), and a file not loaded', async () => {
    const reports = await readV8Reports(coverageOf(ws, 'big'));
    assert.equal(v8LineHits(reports, 'src/classify.js', `// a banner\n${classifyJs}`), undefined);
    assert.equal(v8LineHits(reports, 'src/other.js', classifyJs), undefined);
    assert.equal(v8LineHits([{ result: 'nonsense' }, null, 42], 'src/classify.js', classifyJs), undefined);
  });

  it('reads ES modules by their file: URL', async () => {
    const out = folder();
    const text = readFileSync(join(ws, 'src/esm.mjs'), 'utf8');
    execFileSync(process.execPath, ['--input-type=module', '-e', "import { f } from './src/esm.mjs'; f(-1);"], { cwd: ws, env: { ...process.env, NODE_V8_COVERAGE: out } });
    assert.deepEqual([...(v8LineHits(await readV8Reports(out), 'src/esm.mjs', text) ?? [])].sort(), [1, 2, 4]);
  });
});

const calcPy = [
  'def classify(n):', //        1
  '    if n < 0:', //           2
  '        return "negative"', // 3
  '    if n == 0:', //          4
  '        return "zero"', //   5
  '    if n > 100:', //         6
  '        return "big!"', //   7
  '    return "small"', //      8
  '',
].join('\n');

const calcTests = [
  'import pytest',
  'from calc import classify',
  'def test_negative():',
  '    assert classify(-1) == "negative"',
  'def test_big():',
  '    assert classify(500) == "big"',
  'def test_small():',
  '    assert classify(5) == "small"',
  '@pytest.mark.skip(reason="not today")',
  'def test_skipped():',
  '    assert classify(0) == "zero"',
  '',
].join('\n');

describe('the pytest coverage plugin (a real pytest run)', () => {
  it('records each test\'s outcome and the lines of the target file it ran', async () => {
    const ws = makeWorkspace({ 'calc.py': calcPy, 'tests/test_calc.py': calcTests });
    made.push(ws);
    const out = folder();
    writeFileSync(join(out, `${PLUGIN_MODULE}.py`), PLUGIN_SOURCE);
    const run = spawnSync('/bin/sh', ['-c', withPlugin('python3 -m pytest -q -p no:cacheprovider', out, 'calc.py')], { cwd: ws, encoding: 'utf8' });
    assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /1 failed, 2 passed, 1 skipped/);
    const spectra = pytestSpectra(await readPytestReports(out));
    const lines = (id: string) => [...(spectra.get(id)?.lines ?? [])].sort();
    assert.deepEqual([...spectra.keys()].sort(), ['tests/test_calc.py::test_big', 'tests/test_calc.py::test_negative', 'tests/test_calc.py::test_small']);
    assert.equal(spectra.get('tests/test_calc.py::test_big')?.failed, true);
    assert.equal(spectra.get('tests/test_calc.py::test_small')?.failed, false);
    // The call event names the `def` line; then every line that ran, and none of the test file's.
    assert.deepEqual(lines('tests/test_calc.py::test_big'), [1, 2, 4, 6, 7]);
    assert.deepEqual(lines('tests/test_calc.py::test_negative'), [1, 2, 3]);
    assert.deepEqual(lines('tests/test_calc.py::test_small'), [1, 2, 4, 6, 8]);
  });
});
