// Stage 1 with real runners whose command names a folder: only the failing test's file starts (the others leave a marker when loaded).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cargoAdapter } from '../../../src/core/testResults/cargo';
import { failingIds } from '../../../src/core/testResults/compare';
import { jestAdapter } from '../../../src/core/testResults/jest';
import { mochaAdapter } from '../../../src/core/testResults/mocha';
import { nodeAdapter } from '../../../src/core/testResults/node';
import { pytestAdapter } from '../../../src/core/testResults/pytest';
import { reporterCommand } from '../../../src/core/testResults/reporterCommand';
import { selectionCommand } from '../../../src/core/testResults/selection';
import type { RunnerAdapter, TestResult } from '../../../src/core/testResults/types';
import { vitestAdapter } from '../../../src/core/testResults/vitest';
import type { ReporterRun } from '../../../src/core/testResults/reporterCommand';
import { repoRoot } from '../../unit/helpers/paths';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const cleanup: string[] = [];
after(() => remove(...cleanup));

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

/** A project: the failing test's file, three others that each write `markers/NAME` when loaded. */
interface Case {
  readonly adapter: RunnerAdapter;
  readonly base: string;
  readonly failing: string;
  readonly files: Record<string, string>;
  readonly others: readonly string[];
  readonly nodeModules?: 'link' | 'entries';
  readonly skip?: string | false;
  /** Jest's `--runTestsByPath` makes the command's own patterns exact paths, which a folder never is: it narrowed already. */
  readonly narrowedBefore?: boolean;
}

const OTHERS = ['alpha', 'beta', 'gamma'];
const markJs = (name: string) => `require('node:fs').mkdirSync('markers', { recursive: true }); require('node:fs').writeFileSync('markers/${name}', '');`;
const markEsm = (name: string) => `import { mkdirSync, writeFileSync } from 'node:fs'; mkdirSync('markers', { recursive: true }); writeFileSync('markers/${name}', '');`;

function jsFiles(header: string, test: string, esm = false): Record<string, string> {
  const files: Record<string, string> = {
    'test/target.test.js': [header, esm ? markEsm('target') : markJs('target'), `${test}('adds', () => { if (1 + 1 !== 3) throw new Error('expected 3'); });`, ''].join('\n'),
  };
  for (const name of OTHERS) files[`test/${name}.test.js`] = [header, esm ? markEsm(name) : markJs(name), `${test}('${name} works', () => {});`, ''].join('\n');
  return files;
}

const pyMissing = spawnSync('python3', ['-c', 'import pytest'], { stdio: 'ignore' }).status !== 0 && 'SKIPPED: python3 cannot import pytest';
const cargoMissing = spawnSync('cargo', ['--version'], { stdio: 'ignore' }).status !== 0 && 'SKIPPED: no cargo on PATH';

function pyFiles(): Record<string, string> {
  const mark = (name: string) => `import pathlib; pathlib.Path('markers').mkdir(exist_ok=True); pathlib.Path('markers/${name}').touch()`;
  const files: Record<string, string> = {
    'pkg/__init__.py': '',
    'pkg/calc.py': 'def add(a, b):\n    """\n    >>> add(1, 1)\n    2\n    """\n    return a + b\n',
    'pkg/tests/__init__.py': '',
    'pkg/tests/test_target.py': `${mark('target')}\n\ndef test_adds():\n    assert 1 + 1 == 3\n`,
  };
  for (const name of OTHERS) files[`pkg/tests/test_${name}.py`] = `${mark(name)}\n\ndef test_${name}():\n    pass\n`;
  return files;
}

const cases: Case[] = [
  { adapter: nodeAdapter, base: 'node --test test/', failing: 'test/target.test.js > adds', files: jsFiles("const { test } = require('node:test');", 'test'), others: OTHERS },
  { adapter: mochaAdapter, base: './node_modules/.bin/mocha --recursive test/', failing: 'test/target.test.js > adds', files: jsFiles('', 'it'), others: OTHERS, nodeModules: 'link' },
  { adapter: jestAdapter, base: './node_modules/.bin/jest test', failing: 'test/target.test.js > adds', files: { ...jsFiles('', 'test'), 'package.json': '{"private":true}' }, others: OTHERS, nodeModules: 'link', narrowedBefore: true },
  {
    adapter: vitestAdapter, base: './node_modules/.bin/vitest run test', failing: 'test/target.test.js > adds',
    files: { ...jsFiles("import { test } from 'vitest';", 'test', true), 'package.json': '{"type":"module","private":true}' }, others: OTHERS, nodeModules: 'entries',
  },
  { adapter: pytestAdapter, base: 'python3 -m pytest --doctest-modules pkg/', failing: 'pkg/tests/test_target.py::test_adds', files: pyFiles(), others: OTHERS, skip: pyMissing },
];

function makeProject(c: Case): string {
  const dir = makeWorkspace(c.files);
  cleanup.push(dir);
  const installed = join(repoRoot, 'node_modules');
  if (c.nodeModules === 'link') symlinkSync(installed, join(dir, 'node_modules'));
  else if (c.nodeModules === 'entries') {
    mkdirSync(join(dir, 'node_modules'));
    for (const name of readdirSync(installed)) if (name !== '.vite') symlinkSync(join(installed, name), join(dir, 'node_modules', name));
  }
  return dir;
}

/** Runs `run` in `cwd` as the engine would; the markers the test files left, and the parsed report. */
function runIn(adapter: RunnerAdapter, run: ReporterRun, cwd: string): { markers: string[]; results: TestResult[]; output: string } {
  rmSync(join(cwd, 'markers'), { recursive: true, force: true });
  const folder = mkdtempSync(join(tmpdir(), 'vf-stage1-'));
  cleanup.push(folder);
  for (const [name, text] of Object.entries(run.outputFiles ?? {})) spawnSync('/bin/sh', ['-c', 'cat > "$0"', join(folder, name)], { input: text });
  const report = join(folder, 'report');
  const command = run.command(report, folder);
  const child = spawnSync('/bin/sh', ['-c', command], { cwd, env: childEnv(), encoding: 'utf8', timeout: 120_000 });
  const markers = existsSync(join(cwd, 'markers')) ? readdirSync(join(cwd, 'markers')).sort() : [];
  const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
  return { markers, results: adapter.parse(text, cwd), output: `${command}\n${child.stdout}${child.stderr}` };
}

for (const c of cases) {
  describe(`stage 1 by file: ${c.base}`, { skip: c.skip }, () => {
    const dir = makeProject(c);

    it('starts only the failing test\'s file, and its test fails', () => {
      const run = selectionCommand(c.adapter, c.base, [c.failing]);
      assert.ok(run, 'the selection can be expressed');
      const { markers, results, output } = runIn(c.adapter, run, dir);
      assert.deepEqual(markers, ['target'], output);
      assert.deepEqual(failingIds(results), [c.failing], output);
    });

    it(c.narrowedBefore ? 'the selection on the command as written was narrow already' : 'the selection on the command as written starts every file (what stage 1 cost before)', () => {
      const run = reporterCommand(c.adapter, c.base, [c.failing]);
      assert.ok(run);
      const { markers, output } = runIn(c.adapter, run, dir);
      assert.deepEqual(markers, c.narrowedBefore ? ['target'] : [...c.others, 'target'].sort(), output);
    });
  });
}

describe('stage 1 by target: cargo test', { skip: cargoMissing }, () => {
  it('builds and starts only the failing test\'s test binary', () => {
    const files: Record<string, string> = {
      'Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n#[cfg(test)]\nmod tests { #[test] fn lib_ok() { assert_eq!(super::add(1, 1), 2); } }\n',
      'tests/target.rs': '#[test]\nfn adds() { assert_eq!(demo::add(1, 1), 3); }\n',
    };
    for (const name of OTHERS) files[`tests/${name}.rs`] = `#[test]\nfn ${name}_works() {}\n`;
    const dir = makeWorkspace(files);
    cleanup.push(dir);
    const run = selectionCommand(cargoAdapter, 'cargo test', ['target (tests/target.rs) > adds']);
    assert.ok(run);
    const { results, output } = runIn(cargoAdapter, run, dir);
    assert.deepEqual(failingIds(results), ['target (tests/target.rs) > adds'], output);
    assert.doesNotMatch(output, /Running (?:unittests )?(?:src\/lib\.rs|tests\/(?:alpha|beta|gamma)\.rs)/, output);
  });
});
