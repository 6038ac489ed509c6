// `npm run bench -- stage1`: per runner, what the failing-tests run costs against a full run of a 40-file suite whose command names its folder.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jestAdapter } from '../src/core/testResults/jest';
import { mochaAdapter } from '../src/core/testResults/mocha';
import { nodeAdapter } from '../src/core/testResults/node';
import { pytestAdapter } from '../src/core/testResults/pytest';
import { reporterCommand } from '../src/core/testResults/reporterCommand';
import type { ReporterRun } from '../src/core/testResults/reporterCommand';
import { selectionCommand } from '../src/core/testResults/selection';
import type { RunnerAdapter } from '../src/core/testResults/types';
import { vitestAdapter } from '../src/core/testResults/vitest';

const FILES = 40;
/** Busy work per test file, so that a file costs more than its start-up (about what a small real test file does). */
const WORK_LOOP = 2_000_000;

interface Runner {
  readonly adapter: RunnerAdapter;
  readonly base: string;
  readonly failing: string;
  readonly files: (i: number) => [path: string, text: string];
  readonly extra?: Record<string, string>;
  readonly nodeModules?: boolean;
}

const jsTest = (header: string, fn: string) => (i: number): [string, string] => [
  `test/t${String(i).padStart(2, '0')}.test.js`,
  `${header}\nlet h = 0; for (let k = 0; k < ${WORK_LOOP}; k++) h = (h * 31 + k) | 0;\n${fn}('case ${i}', () => { if (${i} === 0 && h === h) throw new Error('seeded'); });\n`,
];

const RUNNERS: Runner[] = [
  { adapter: nodeAdapter, base: 'node --test test/', failing: 'test/t00.test.js > case 0', files: jsTest("const { test } = require('node:test');", 'test') },
  { adapter: mochaAdapter, base: './node_modules/.bin/mocha test/', failing: 'test/t00.test.js > case 0', files: jsTest('', 'it'), nodeModules: true },
  { adapter: jestAdapter, base: './node_modules/.bin/jest test', failing: 'test/t00.test.js > case 0', files: jsTest('', 'test'), extra: { 'package.json': '{"private":true}' }, nodeModules: true },
  {
    adapter: vitestAdapter, base: './node_modules/.bin/vitest run test', failing: 'test/t00.test.js > case 0', files: jsTest("import { test } from 'vitest';", 'test'),
    extra: { 'package.json': '{"private":true,"type":"module"}' }, nodeModules: true,
  },
  {
    adapter: pytestAdapter, base: 'python3 -m pytest -q tests/', failing: 'tests/test_00.py::test_case',
    files: (i) => [`tests/test_${String(i).padStart(2, '0')}.py`, `h = 0\nfor k in range(${WORK_LOOP / 10}):\n    h = (h * 31 + k) & 0xffffffff\n\ndef test_case():\n    assert ${i} != 0\n`],
  },
];

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: '1' };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

function makeProject(runner: Runner, dir: string): void {
  for (let i = 0; i < FILES; i++) {
    const [path, text] = runner.files(i);
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  for (const [path, text] of Object.entries(runner.extra ?? {})) writeFileSync(join(dir, path), text);
  if (runner.nodeModules) {
    // Entries, not one link: vitest writes its cache into node_modules/.vite.
    mkdirSync(join(dir, 'node_modules'));
    const installed = join(process.cwd(), 'node_modules');
    for (const name of readdirSync(installed)) if (name !== '.vite') symlinkSync(join(installed, name), join(dir, 'node_modules', name));
  }
}

/** Wall time of one run of `run` in `dir` (ms), or undefined when the runner is missing. */
function timeRun(run: ReporterRun, dir: string, out: string): number | undefined {
  for (const [name, text] of Object.entries(run.outputFiles ?? {})) writeFileSync(join(out, name), text);
  const t0 = performance.now();
  const child = spawnSync('/bin/sh', ['-c', run.command(join(out, 'report'), out)], { cwd: dir, env: childEnv(), stdio: 'ignore', timeout: 300_000 });
  return child.status === null || child.status > 1 ? undefined : performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Prints, per runner, the full run, the old failing-tests run (every file started) and the new one (the failing file only). */
export async function benchStageOne(): Promise<void> {
  console.log(`stage 1 by file: ${FILES} test files, the command names their folder, one test fails (median of 3 runs each)`);
  // STAGE1_RUNNERS=vitest,pytest measures only those (a loaded machine takes minutes per runner).
  const only = process.env.STAGE1_RUNNERS?.split(',');
  for (const runner of RUNNERS.filter((r) => !only || only.includes(r.adapter.name))) {
    const scratch = mkdtempSync(join(tmpdir(), 'vf-stage1-bench-'));
    try {
      const dir = join(scratch, 'project');
      const out = join(scratch, 'out');
      mkdirSync(dir);
      mkdirSync(out);
      makeProject(runner, dir);
      const runs: Array<[string, ReporterRun | undefined]> = [
        ['full', reporterCommand(runner.adapter, runner.base)],
        ['stage 1 before', reporterCommand(runner.adapter, runner.base, [runner.failing])],
        ['stage 1 now', selectionCommand(runner.adapter, runner.base, [runner.failing])],
      ];
      const times = runs.map(([, run]) => {
        if (!run) return undefined;
        timeRun(run, dir, out); // warm the file cache and the runner's own caches
        const samples = [0, 1, 2].map(() => timeRun(run, dir, out));
        return samples.some((t) => t === undefined) ? undefined : median(samples as number[]);
      });
      const [full, before, now] = times;
      if (full === undefined || before === undefined || now === undefined) {
        console.log(`  ${runner.adapter.name}: not measured (the runner did not run here)`);
        continue;
      }
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      console.log(`  ${runner.adapter.name} (\`${runner.base}\`): full ${s(full)}; stage 1 before ${s(before)} (${(before / full).toFixed(2)}× full), now ${s(now)} (${(now / full).toFixed(2)}× full)`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
}
