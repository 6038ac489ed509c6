// Engine benchmarks: isolation vs `cp -r`, end-to-end parallel runs vs the ideal, kill time, sandbox overhead.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runFix } from '../src/core/engine/runFix';
import { createFileProvider } from '../src/core/providers/fileProvider';
import { detectSandbox, sandboxOfKind } from '../src/core/sandbox/detect';
import { createContainerBackend } from '../src/core/sandbox/container';
import type { SandboxBackend } from '../src/core/sandbox/backend';
import { runTestCommand } from '../src/core/sandbox/runCommand';
import { createCopy, listWorkspace, removeCopy } from '../src/core/isolation/workspaceCopy';
import { describeProtections } from '../src/core/contract/protections';

const DEPENDENCIES = ['jest', 'typescript', 'eslint', 'webpack', '@babel/core', 'lodash', 'rxjs', 'date-fns', '@types/node', 'vitest', 'jsdom'];

export function countFiles(dir: string): number {
  return Number(execFileSync('sh', ['-c', `find "${dir}" -type f | wc -l`], { encoding: 'utf8' }).trim());
}

/** A realistic workspace: a real node_modules from npm, 200 source files, 20 tests, a git repo. Built once, cached. */
export function benchWorkspace(): string {
  const dir = process.env.VERIFIED_FIX_BENCH_WS || join(homedir(), '.cache', 'verified-fix', 'bench-ws');
  const ready = join(dir, '.bench-ready');
  if (existsSync(ready)) return dir;
  console.log(`building the benchmark workspace in ${dir} (npm install of ${DEPENDENCIES.length} packages, once)…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-ws', private: true, scripts: { test: 'node --test' } }, null, 2));
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  for (let i = 0; i < 200; i++) writeFileSync(join(dir, 'src', `mod${i}.js`), `exports.f${i} = (x) => x + ${i};\n`);
  for (let i = 0; i < 20; i++) {
    writeFileSync(join(dir, 'test', `t${i}.test.js`), `const t = require('node:test');\nconst { f${i} } = require('../src/mod${i}');\nt.test('f', () => { if (f${i}(1) !== ${i + 1}) throw new Error('x'); });\n`);
  }
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--save-dev', ...DEPENDENCIES], { cwd: dir, stdio: 'ignore' });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@example.invalid', '-c', 'user.name=bench', 'commit', '-qm', 'bench workspace');
  writeFileSync(ready, '');
  return dir;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function benchIsolation(ws: string, scratch: string): Promise<void> {
  const files = countFiles(ws);
  const cpTimes: number[] = [];
  // One cp -r is enough for the ratio: it takes tens of seconds on a workspace this size.
  for (let i = 0; i < 1; i++) {
    const target = join(scratch, `cp-${i}`);
    cpTimes.push(await timeAsync(async () => spawnSync('cp', ['-r', ws, target])));
    rmSync(target, { recursive: true, force: true });
  }
  const listing = await listWorkspace(ws, ['node_modules'], []);
  const listTime = await timeAsync(() => listWorkspace(ws, ['node_modules'], []));
  const copyTimes: number[] = [];
  for (let i = 0; i < 10; i++) {
    let copy = '';
    copyTimes.push(await timeAsync(async () => (copy = await createCopy(listing, scratch, 'bench'))));
    await removeCopy(copy);
  }
  const cp = median(cpTimes);
  const ours = median(copyTimes);
  console.log(`isolation: workspace of ${files} files; cp -r ${cp.toFixed(0)} ms; our copy ${ours.toFixed(1)} ms per candidate ` +
    `(+ ${listTime.toFixed(0)} ms listing once per request) = ${((100 * ours) / cp).toFixed(2)}% of cp -r (target ≤ 2%)`);
}

async function benchEndToEnd(scratch: string): Promise<void> {
  const ws = join(scratch, 'e2e');
  mkdirSync(ws);
  writeFileSync(join(ws, 'value.txt'), 'x\n');
  const candidates = Array.from({ length: 10 }, (_, i) => `candidate ${i}`);
  const elapsed = await timeAsync(() =>
    runFix({
      workspace: ws, relativePath: 'value.txt', start: 0, end: 1, testCommand: 'sleep 1', samples: 10, 
      testTimeoutMs: 30_000, totalTimeoutMs: 120_000, parallel: 4, baselineCheck: false, confirmRuns: 1,
      isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 },
      provider: createFileProvider(candidates),
    }),
  );
  const ideal = Math.ceil(10 / 4) * 1000;
  console.log(`end-to-end: n = 10 candidates of 'sleep 1' at parallel 4: ${(elapsed / 1000).toFixed(2)} s = ${(elapsed / ideal).toFixed(3)}× the ideal ${ideal / 1000} s (target ≤ 1.10)`);
}

/** Live (non-zombie) processes whose command line holds the marker: PID namespaces renumber, markers survive. */
function survivors(marker: string): number[] {
  const alive: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0];
      if (cmd.includes(marker) && state !== 'Z') alive.push(Number(pid));
    } catch {
      // gone
    }
  }
  return alive;
}

async function benchKilling(strongest: SandboxBackend, scratch: string): Promise<void> {
  // Inside the run's folder: the sandbox's private /tmp would hide a checkout that lives under /tmp.
  copyFileSync(join(__dirname, '..', '..', 'test', 'fixtures', 'runner', 'hostile.sh'), join(scratch, 'hostile.sh'));
  const hostile = 'hostile.sh';
  const fallback = await sandboxOfKind('process-group');
  for (const backend of [strongest, ...(strongest.kind === 'process-group' || !fallback ? [] : [fallback])]) {
    const kind = backend.kind;
    const marker = String(100000 + Math.floor(Math.random() * 899999));
    const timeoutMs = 1000;
    const t0 = performance.now();
    await runTestCommand({ command: `sh ${hostile} ${marker}`, cwd: scratch, timeoutMs, backend, allowNetwork: false, memoryMB: 0 });
    let left = survivors(marker);
    const deadline = performance.now() + 1000;
    while (left.length > 0 && performance.now() < deadline) left = survivors(marker);
    const gone = performance.now() - t0 - timeoutMs;
    console.log(`kill (${kind}): a hostile tree of 9+ processes, from the timeout to the last process gone: ${left.length === 0 ? `${gone.toFixed(0)} ms` : 'not within 1 s'}, ${left.length} survivor(s) (target 0 within 1 s)`);
    for (const pid of left) process.kill(pid, 'SIGKILL');
  }
}

async function benchSandboxOverhead(strongest: SandboxBackend, scratch: string): Promise<void> {
  const medianOf = async (once: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 30; i++) times.push(await timeAsync(once));
    return median(times);
  };
  // Baseline: the same command spawned plainly, with nothing around it.
  const plain = await medianOf(() => execa('/bin/sh', ['-c', 'true'], { cwd: scratch, stdin: 'ignore' }));
  const runner = (backend: SandboxBackend, memoryMB: number) =>
    medianOf(() => runTestCommand({ command: 'true', cwd: scratch, timeoutMs: 10_000, backend, allowNetwork: false, memoryMB }));
  const fallback = await runner((await sandboxOfKind('process-group')) ?? strongest, 0);
  const sandboxed = await runner(strongest, 4096);
  console.log(`sandbox overhead: a run of 'true' takes ${plain.toFixed(1)} ms as a plain spawn, ${fallback.toFixed(1)} ms through the runner ` +
    `without a sandbox (${(fallback / plain).toFixed(2)}×: the tree kill's ps) and ${sandboxed.toFixed(1)} ms under ${strongest.kind} with the memory cap ` +
    `(${(sandboxed / plain).toFixed(2)}×, +${(sandboxed - plain).toFixed(1)} ms per run)`);
  // The container backend, where an engine and the test image are here (scripts/container-image.sh builds it).
  const container = await createContainerBackend({ image: process.env.VERIFIED_FIX_IMAGE ?? 'localhost/verified-fix-test:1', workspace: scratch, hostEnv: process.env });
  if ('problem' in container) {
    console.log(`container overhead: not measured (${container.problem})`);
    return;
  }
  const containerTimes: number[] = [];
  for (let i = 0; i < 10; i++) containerTimes.push(await timeAsync(() => runTestCommand({ command: 'true', cwd: scratch, timeoutMs: 60_000, backend: container, allowNetwork: false, memoryMB: 4096 })));
  const inContainer = median(containerTimes);
  console.log(`container overhead: a run of 'true' takes ${inContainer.toFixed(0)} ms in ${container.protections({ allowNetwork: false, memoryMB: 4096 }).name} ` +
    `(${(inContainer / sandboxed).toFixed(1)}× the ${sandboxed.toFixed(1)} ms under ${strongest.kind}, +${(inContainer - sandboxed).toFixed(0)} ms per run)`);
}

export async function benchEngine(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'vf-bench-'));
  try {
    const strongest = await detectSandbox();
    console.log(`containment here: ${describeProtections(strongest.protections({ allowNetwork: false, memoryMB: 4096 }))}`);
    await benchSandboxOverhead(strongest, scratch);
    await benchKilling(strongest, scratch);
    await benchEndToEnd(scratch);
    await benchIsolation(benchWorkspace(), scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
