// Per-test reports through side channels on real runners (jest 29, vitest 3, node --test, pytest): the user's
// reporters, options and printed output stay as written, and the report still names every test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resolveRunner } from '../../../src/core/testCommand/runner';
import { verdicts } from '../../../src/core/testResults/compare';
import type { TestOutcome } from '../../../src/core/testResults/types';
import { repoRoot } from '../../unit/helpers/paths';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

function project(files: Record<string, string>, modules: 'link' | 'entries' | 'none'): string {
  const ws = makeWorkspace(files);
  made.push(ws);
  const installed = join(repoRoot, 'node_modules');
  if (modules === 'link') symlinkSync(installed, join(ws, 'node_modules'));
  if (modules === 'entries') {
    // vitest writes its cache to node_modules/.vite: through one link it would land in the repo's own.
    mkdirSync(join(ws, 'node_modules'));
    for (const name of readdirSync(installed)) if (name !== '.vite') symlinkSync(join(installed, name), join(ws, 'node_modules', name));
  }
  return ws;
}

/** `npm test` (or `command`) resolved as the engine does, then run with its side channel as the executor would. */
function run(ws: string, command = 'npm test', only?: readonly string[]) {
  const runner = resolveRunner(ws, command);
  assert.ok('adapter' in runner, JSON.stringify(runner));
  const out = mkdtempSync(join(tmpdir(), 'vf-side-'));
  made.push(out);
  for (const [name, text] of Object.entries(runner.adapter.outputFiles ?? {})) writeFileSync(join(out, name), text);
  const report = join(out, 'report');
  const line = runner.adapter.command(runner.base, report, only, out);
  assert.ok(line, 'the adapter could not build the command');
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.NODE_TEST_CONTEXT;
  const child = spawnSync('/bin/sh', ['-c', line], { cwd: ws, env, encoding: 'utf8', timeout: 120_000 });
  const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
  const results = runner.adapter.parse(text, ws);
  return { status: child.status, stdout: child.stdout, stderr: child.stderr, outcomes: verdicts(results), results, line, base: runner.base };
}

const sorted = (outcomes: Map<string, TestOutcome>) => [...outcomes].map(([id, outcome]) => `${outcome} ${id}`).sort();

describe('jest 29: the results processor keeps the config\'s reporters, --silent and projects', () => {
  const ws = project(
    {
      'package.json': JSON.stringify({
        private: true,
        scripts: { test: 'jest --silent' },
        jest: {
          reporters: ['<rootDir>/countReporter.js'],
          projects: [
            { displayName: 'a', testMatch: ['<rootDir>/a/**/*.test.js'] },
            { displayName: 'b', testMatch: ['<rootDir>/b/**/*.test.js'] },
          ],
        },
      }),
      'countReporter.js': 'module.exports = class { onRunComplete(_, r) { console.log(`COUNT: ${r.numPassedTests} passed, ${r.numFailedTests} failed`); } };\n',
      'a/x.test.js': "test('one', () => { console.log('printed'); expect(1).toBe(2); });\ndescribe('g', () => test('two', () => expect(1).toBe(1)));\n",
      'b/y.test.js': "test('three', () => expect(1).toBe(1));\n",
    },
    'link',
  );

  it('reports every project\'s tests while only the user\'s reporter prints, on stdout', () => {
    const r = run(ws);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^COUNT: 2 passed, 1 failed$/m, "the config's reporter still prints, on stdout");
    assert.doesNotMatch(`${r.stdout}${r.stderr}`, /printed/, '--silent still holds');
    assert.doesNotMatch(r.line, /--json|--reporters/);
    assert.deepEqual(sorted(r.outcomes), ['failed a/x.test.js > one', 'passed a/x.test.js > g > two', 'passed b/y.test.js > three']);
    assert.match(r.results.find((t) => t.id === 'a/x.test.js > one')?.message ?? '', /Expected: 2/);
  });

  it('selects one test in one project', () => {
    const r = run(ws, 'npm test', ['a/x.test.js > one']);
    assert.deepEqual(sorted(r.outcomes), ['failed a/x.test.js > one', 'skipped a/x.test.js > g > two']);
  });
});

describe('vitest 3: a config that names reporters keeps them, through the wrapper config', () => {
  const ws = project(
    {
      'package.json': JSON.stringify({ private: true, type: 'module', scripts: { test: 'vitest run' } }),
      'vitest.config.ts': "import { defineConfig } from 'vitest/config';\nconst dots: string = 'dot';\nexport default defineConfig({ test: { reporters: [dots], include: ['test/**/*.test.js'] } });\n",
      'test/a.test.js': "import { describe, expect, test } from 'vitest';\ntest('ok', () => expect(1).toBe(1));\ndescribe('g', () => { test('bad', () => expect(1).toBe(2)); });\n",
      'test/b.test.js': "import { expect, test } from 'vitest';\ntest('other', () => expect(2).toBe(2));\n",
    },
    'entries',
  );

  it("prints the config's dot reporter (no default reporter's file list) and reports every test", () => {
    const r = run(ws);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.line, /--config \S*verified-fix\.vitest\.config\.mjs$/);
    assert.match(r.stdout, /^·x·$|^··x$|^x··$|^·x$|^··$/m, `the dot reporter prints:\n${r.stdout}`);
    assert.doesNotMatch(r.stdout, /✓ test\/b\.test\.js/, 'not the default reporter');
    assert.deepEqual(sorted(r.outcomes), ['failed test/a.test.js > g > bad', 'passed test/a.test.js > ok', 'passed test/b.test.js > other']);
  });

  it('selects one test', () => {
    const r = run(ws, 'npm test', ['test/a.test.js > g > bad']);
    assert.deepEqual(sorted(r.outcomes), ['failed test/a.test.js > g > bad', 'skipped test/a.test.js > ok']);
  });
});

describe("node --test: the user's reporters keep their destinations; the tool's goes to a file", () => {
  const ws = project(
    {
      'package.json': JSON.stringify({ private: true, scripts: { test: 'node --test --test-reporter=dot --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=user.tap test/' } }),
      'test/a.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\ntest('ok', () => assert.ok(true));\ntest.describe('g', () => { test.it('bad', () => assert.strictEqual(1, 2)); });\n",
    },
    'none',
  );

  it('two reporters of the user\'s: dots on stdout, TAP in their file, and the report', () => {
    const r = run(ws);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^\.X/m, 'the dot reporter on stdout');
    assert.doesNotMatch(r.stdout, /^TAP version/m);
    assert.match(readFileSync(join(ws, 'user.tap'), 'utf8'), /^TAP version 13/, "the user's TAP file is written");
    assert.deepEqual(sorted(r.outcomes), ['failed test/a.test.js > g > bad', 'passed test/a.test.js > ok']);
  });

  it('one reporter without a destination still prints on stdout', () => {
    const r = run(ws, 'node --test --test-reporter=tap test/');
    assert.match(r.stdout, /^TAP version 13/m);
    assert.doesNotMatch(r.stdout, /✖|▶/, 'no spec reporter added');
    assert.equal(r.outcomes.get('test/a.test.js > g > bad'), 'failed');
  });
});

const pytest = spawnSync('python3', ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0;

describe('pytest: the plugin beside any addopts, -x, --maxfail, -q and -v', { skip: pytest ? false : 'SKIPPED: python3 -m pytest is not installed' }, () => {
  const ws = project(
    {
      'pytest.ini': '[pytest]\naddopts = -q --maxfail=5 --junitxml=own.xml\n',
      'tests/test_a.py': [
        'import pytest',
        'def test_ok(): assert 1 == 1',
        'def test_bad(): assert 2 == 1',
        '@pytest.mark.skip',
        'def test_skip(): pass',
        '@pytest.fixture',
        'def boom(): raise RuntimeError("in setup")',
        'def test_setup(boom): pass',
        'class TestC:',
        '    @pytest.mark.parametrize("x", [1, 2])',
        '    def test_p(self, x): assert x == 1',
        '',
      ].join('\n'),
    },
    'none',
  );

  it("reports every test, and the user's own --junitxml is still written", () => {
    const r = run(ws, 'python3 -m pytest');
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /2 failed, 2 passed, 1 skipped, 1 error/, r.stderr);
    assert.ok(existsSync(join(ws, 'own.xml')), "addopts' --junitxml still writes the user's file");
    assert.deepEqual(sorted(r.outcomes), [
      'failed tests/test_a.py::TestC::test_p[2]',
      'failed tests/test_a.py::test_bad',
      'failed tests/test_a.py::test_setup',
      'passed tests/test_a.py::TestC::test_p[1]',
      'passed tests/test_a.py::test_ok',
      'skipped tests/test_a.py::test_skip',
    ]);
    assert.match(r.results.find((t) => t.id === 'tests/test_a.py::test_bad')?.message ?? '', /^assert 2 == 1/);
    assert.match(r.results.find((t) => t.id === 'tests/test_a.py::test_setup')?.message ?? '', /RuntimeError: in setup/);
  });

  it('-x: the tests before the first failure, and -v selection of one parametrised case', () => {
    const x = run(ws, 'python3 -m pytest -x');
    assert.deepEqual(sorted(x.outcomes), ['failed tests/test_a.py::test_bad', 'passed tests/test_a.py::test_ok']);
    const one = run(ws, 'python3 -m pytest -v', ['tests/test_a.py::TestC::test_p[2]']);
    assert.match(one.stdout, /PASSED|FAILED/, '-v output');
    assert.deepEqual(sorted(one.outcomes), ['failed tests/test_a.py::TestC::test_p[2]']);
  });
});
