// parseTestSummary on the output of real node --test and pytest runs (captured output: test/unit/testSummary.test.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseTestSummary, testsRun } from '../../../src/core/testResults/summary';
import type { TestSummary } from '../../../src/core/testResults/summary';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const s = (runner: TestSummary['runner'], passed: number, failed: number, skipped: number): TestSummary => ({ runner, passed, failed, skipped });

/** Runs a command to the end and returns what it printed on both streams, as the engine would see it. */
function runCombined(file: string, args: string[], cwd: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  // Set in every file node --test runs; a nested `node --test` that inherits it reports to its parent instead of printing.
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(file, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return `${run.stdout}${run.stderr}`;
}

describe('live runs', () => {
  const workspaces: string[] = [];
  after(() => remove(...workspaces));
  const workspace = (files: Record<string, string>) => {
    const dir = makeWorkspace(files);
    workspaces.push(dir);
    return dir;
  };

  it('node --test: the count drops when the module under test exits 0 at import', () => {
    const dir = workspace({
      'calc.js': 'module.exports = { add: (a, b) => a + b };\n',
      'calc.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "const { add } = require('./calc');",
        "test('one', () => assert.equal(add(1, 1), 2));",
        "test('two', () => assert.equal(add(1, 2), 3));",
        "test('later', { skip: true }, () => {});",
        '',
      ].join('\n'),
    });
    const baseline = parseTestSummary(runCombined(process.execPath, ['--test'], dir));
    assert.deepEqual(baseline, s('node', 2, 0, 1));
    assert.deepEqual(parseTestSummary(runCombined(process.execPath, ['--test', '--test-reporter=spec'], dir)), baseline);

    writeFileSync(join(dir, 'calc.js'), 'process.exit(0);\n');
    const faked = parseTestSummary(runCombined(process.execPath, ['--test'], dir));
    assert.deepEqual(faked, s('node', 1, 0, 0), 'node reports the exited file as one passing test');
    assert.ok(testsRun(faked) < testsRun(baseline));
  });

  const python = spawnSync('python3', ['-c', 'import pytest'], { encoding: 'utf8' });
  const noPytest = python.status === 0 ? false : 'python3 with pytest is not available on this machine';
  it('pytest: a module that calls os._exit(0) during collection leaves no summary', { skip: noPytest }, () => {
    const dir = workspace({
      'calc.py': 'def add(a, b):\n    return a + b\n',
      'test_calc.py': 'from calc import add\n\ndef test_one():\n    assert add(1, 1) == 2\n\ndef test_two():\n    assert add(1, 2) == 4\n',
    });
    const pytest = () => runCombined('python3', ['-m', 'pytest', '-p', 'no:cacheprovider'], dir);
    assert.deepEqual(parseTestSummary(pytest()), s('pytest', 1, 1, 0));
    writeFileSync(join(dir, 'calc.py'), 'import os\nos._exit(0)\n');
    assert.equal(parseTestSummary(pytest()), undefined);
  });
});
