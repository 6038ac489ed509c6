// The engine's own cost per candidate (isolation, per-run checks, the package manager) against what a run must cost:
// a warm `cp -r`, bare runs of the test command, one full run of a real project's suite. Ratios measured in this run.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFix } from '../src/core/engine/runFix';
import type { FixRequest } from '../src/core/contract/fixRequest';
import { chooseIsolation } from '../src/core/isolation/chooseIsolation';
import { createFileProvider } from '../src/core/providers/fileProvider';
import { createMutationProvider } from '../src/core/providers/mutationProvider';
import { silentLogger } from '../src/core/base/logger';
import { detectSandbox } from '../src/core/sandbox/detect';
import type { OverlayMount, SandboxBackend } from '../src/core/sandbox/backend';
import { createRequestFolder, removeOrSetAside } from '../src/core/isolation/tempRoot';
import { runTestCommand } from '../src/core/sandbox/runCommand';
import { listWorkspace } from '../src/core/isolation/workspaceCopy';
import { benchWorkspace, countFiles, median, timeAsync } from './engineBench';
import type { IsolationMode } from '../src/core/contract/choices';

const MODES: readonly IsolationMode[] = ['overlay', 'reuse', 'copy'];

/** Per candidate: a tree made, a run's worth of writes, the tree given back and removed; plus what mounting costs a run. */
async function isolationCost(ws: string, backend: SandboxBackend, cp: number): Promise<void> {
  const listing = await listWorkspace(ws, ['node_modules'], []);
  const target = 'src/mod0.js';
  const original = readFileSync(join(ws, target), 'utf8');
  const runTrue = (overlay?: OverlayMount) =>
    timeAsync(() => runTestCommand({ command: 'true', cwd: ws, timeoutMs: 30_000, backend, allowNetwork: false, memoryMB: 0, ...(overlay ? { overlay } : {}) }));
  for (const mode of MODES) {
    const requestDir = await createRequestFolder();
    try {
      const trees = await chooseIsolation({ choice: mode, backend, workspace: ws, listing, requestDir, target, logger: silentLogger }).catch(() => undefined);
      if (!trees) {
        console.log(`isolation (${mode}): not available here`);
        continue;
      }
      const costs: number[] = [];
      for (let i = 0; i < 11; i++) {
        costs.push(
          await timeAsync(async () => {
            const tree = await trees.acquire(`bench${i}`, `${original}// candidate ${i}\n`);
            // What tools leave in a tree: a cache folder (an overlay run writes into its layer the same way).
            const cache = join(tree.overlay ? tree.overlay.upper : tree.dir, 'node_modules', '.cache');
            mkdirSync(cache, { recursive: true });
            writeFileSync(join(cache, 'x.json'), '{}');
            await tree.changes();
            await trees.release(tree, false);
            // Reused copies are reset in release; the other modes remove theirs in the background: counted here.
            if (mode !== 'reuse') await trees.dispose();
          }),
        );
      }
      let mount = 0;
      if (mode === 'overlay') {
        const tree = await trees.acquire('mount', original);
        const extra: number[] = [];
        for (let i = 0; i < 5; i++) extra.push((await runTrue(tree.overlay)) - (await runTrue()));
        await trees.release(tree, false);
        mount = Math.max(0, median(extra));
      }
      await trees.dispose();
      const cost = median(costs.slice(1)) + mount;
      const mounting = mode === 'overlay' ? ` incl. ${mount.toFixed(1)} ms of mounting per run` : '';
      console.log(`isolation (${mode}): ${cost.toFixed(1)} ms per candidate${mounting} = ${((100 * cost) / cp).toFixed(2)}% of one warm cp -r (target ≤ 2%)`);
    } finally {
      await removeOrSetAside(requestDir);
    }
  }
}

function baseRequest(ws: string, relativePath: string, mode: IsolationMode | 'auto', overrides: Partial<FixRequest>): FixRequest {
  return {
    workspace: ws, relativePath, start: 0, end: 0, samples: 10, testTimeoutMs: 60_000, totalTimeoutMs: 1_800_000,
    parallel: 2, baselineCheck: true, confirmRuns: 1,
    isolation: { linkedFolders: ['node_modules'], excludes: [], allowNetwork: false, memoryMB: 0, mode },
    provider: createFileProvider([]), ...overrides,
  };
}

/**
 * A request of 10 candidates whose test is `true`, against 11 bare runs of `true` (the baseline and 10 candidates), and
 * against 11 runs of it in the sandbox alone, which says what the engine adds beyond the sandbox's own start.
 */
async function trivialRequest(ws: string, backend: SandboxBackend): Promise<void> {
  const bare = await timeAsync(async () => {
    for (let i = 0; i < 11; i++) spawnSync('/bin/sh', ['-c', 'true'], { cwd: ws });
  });
  const sandboxed = await timeAsync(async () => {
    for (let i = 0; i < 11; i++) await runTestCommand({ command: 'true', cwd: ws, timeoutMs: 30_000, backend, allowNetwork: false, memoryMB: 0 });
  });
  console.log(`11 runs of \`true\`: ${bare.toFixed(0)} ms bare, ${sandboxed.toFixed(0)} ms one after another in the ${backend.kind} sandbox (its start-up alone: ${(sandboxed / bare).toFixed(1)}×)`);
  const candidates = Array.from({ length: 10 }, (_, i) => `exports.f0 = (x) => x + ${i + 1};`);
  for (const mode of ['auto', ...MODES] as const) {
    // Like for like with the 11 runs: with `true` every candidate and every variant passes, so no strength check.
    const request = baseRequest(ws, 'src/mod0.js', mode, {
      testCommand: 'true', end: readFileSync(join(ws, 'src/mod0.js'), 'utf8').indexOf('\n'), provider: createFileProvider(candidates), strengthCheck: 'off',
    });
    const elapsed = await timeAsync(() => runFix(request));
    console.log(`request of 10 candidates testing \`true\` (${mode}, parallel 2): ${elapsed.toFixed(0)} ms = ${(elapsed / bare).toFixed(1)}× 11 bare runs (target ≤ 3), ${(elapsed / sandboxed).toFixed(2)}× 11 sandboxed runs`);
  }
}

const QS_VERSION = '6.14.0';
// Its test script without nyc (coverage) and the lint, audit and dist steps of the published scripts.
const QS_TEST = "tape 'test/**/*.js'";
const QS_DEPENDENCIES = ['tape@5', 'es-value-fixtures', 'for-each', 'has-bigints', 'has-override-mistake', 'has-property-descriptors', 'has-proto', 'has-symbols', 'iconv-lite', 'mock-property', 'object-inspect', 'qs-iconv', 'safer-buffer'];
// A seeded one-token bug in qs's own encoder: code points 0x80 are encoded as one byte.
const QS_BUG = { file: 'lib/utils.js', from: 'if (c < 0x80) {', to: 'if (c <= 0x80) {' };

/** qs (a query-string library with ~800 tape assertions) from the npm registry, with its own tests and a seeded bug. */
function qsProject(): string | undefined {
  const dir = process.env.VERIFIED_FIX_BENCH_QS || join(homedir(), '.cache', 'verified-fix', `bench-qs-${QS_VERSION}`);
  if (existsSync(join(dir, '.bench-ready'))) return dir;
  console.log(`building the qs ${QS_VERSION} project in ${dir} (npm install, once)…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'qs-bench', private: true, main: 'lib/index.js', scripts: { test: QS_TEST } }, null, 2));
  const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--save-dev', `qs@${QS_VERSION}`, ...QS_DEPENDENCIES], { cwd: dir, stdio: 'ignore' });
  if (installed.status !== 0) return undefined;
  for (const folder of ['lib', 'test']) cpSync(join(dir, 'node_modules', 'qs', folder), join(dir, folder), { recursive: true });
  const source = readFileSync(join(dir, QS_BUG.file), 'utf8');
  writeFileSync(join(dir, QS_BUG.file), source.replace(QS_BUG.from, QS_BUG.to));
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@example.invalid', '-c', 'user.name=bench', 'commit', '-qm', 'qs with a seeded bug');
  writeFileSync(join(dir, '.bench-ready'), '');
  return dir;
}

/** Lines (1-based) of the seeded bug and of the whole function around it, in qs's utils.js. */
function qsSelections(dir: string): { line: [number, number]; fn: [number, number]; text: string } {
  const text = readFileSync(join(dir, QS_BUG.file), 'utf8');
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(QS_BUG.to)) + 1;
  let start = line;
  while (start > 1 && !/^var encode = |function /.test(lines[start - 1])) start--;
  let end = line;
  while (end < lines.length && !/^};?$/.test(lines[end - 1])) end++;
  return { line: [line, line], fn: [start, end], text };
}

function offsets(text: string, [a, b]: [number, number]): { start: number; end: number } {
  const lines = text.split('\n');
  const start = lines.slice(0, a - 1).join('\n').length + (a > 1 ? 1 : 0);
  return { start, end: start + lines.slice(a - 1, b).join('\n').length };
}

/** A 10-candidate request of the offline generator on a real project against one full run of its suite. */
async function realProject(): Promise<void> {
  const dir = qsProject();
  if (!dir) {
    console.log('real project: not measured (npm could not install qs and its test dependencies here)');
    return;
  }
  const medianRun = async (command: string) => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) times.push(await timeAsync(async () => spawnSync('/bin/sh', ['-c', command], { cwd: dir, stdio: 'ignore' })));
    return median(times);
  };
  const npmRun = await medianRun('npm test');
  const direct = await medianRun(`PATH="$PWD/node_modules/.bin:$PATH" ${QS_TEST}`);
  const startup = await medianRun('node node_modules/tape/bin/tape /dev/null');
  console.log(`real project: qs ${QS_VERSION}, ${countFiles(join(dir, 'test'))} test files; npm test ${npmRun.toFixed(0)} ms, its script run directly ${direct.toFixed(0)} ms ` +
    `(npm's own start-up ${(npmRun - direct).toFixed(0)} ms = ${((100 * (npmRun - direct)) / npmRun).toFixed(0)}% of a run), the runner's start-up ${startup.toFixed(0)} ms = ${((100 * startup) / direct).toFixed(0)}% of a direct run`);
  const { line, fn, text } = qsSelections(dir);
  for (const [what, lines] of [['the buggy line', line], [`the whole function (lines ${fn[0]}–${fn[1]})`, fn]] as const) {
    for (const mode of ['auto', 'copy'] as const) {
      const { start, end } = offsets(text, lines);
      const request = baseRequest(dir, QS_BUG.file, mode, { testCommand: 'npm test', start, end, samples: 10, confirmRuns: 2, provider: createMutationProvider() });
      let verified = 0;
      let tested = 0;
      const t0 = performance.now();
      // The list is shown when the verdicts are in; the strength check runs after it.
      let listed = 0;
      const elapsed = await timeAsync(async () => {
        const result = await runFix(request, (event) => {
          if (event.type === 'verdicts' || (event.type === 'done' && listed === 0)) listed = performance.now() - t0;
        });
        verified = result.verified.length;
        tested = result.samples;
      });
      console.log(`real project, ${what}, ${mode}: ${tested} candidates (${verified} verified) listed after ${(listed / 1000).toFixed(1)} s = ${(listed / npmRun).toFixed(1)} full runs of npm test ` +
        `(target ≤ 3 for a 5–10 s suite); with the strength check ${(elapsed / 1000).toFixed(1)} s`);
    }
  }
}

export async function benchCost(): Promise<void> {
  const backend = await detectSandbox();
  const ws = benchWorkspace();
  const scratch = mkdtempSync(join(tmpdir(), 'vf-cost-'));
  try {
    // Warm: the first copy pulls the workspace into the page cache.
    const cpTimes: number[] = [];
    for (let i = 0; i < 2; i++) {
      cpTimes.push(await timeAsync(async () => spawnSync('cp', ['-r', ws, join(scratch, `cp-${i}`)])));
      rmSync(join(scratch, `cp-${i}`), { recursive: true, force: true });
    }
    const cp = cpTimes[1];
    console.log(`cost: generated workspace of ${countFiles(ws)} files (a real node_modules); one warm cp -r ${cp.toFixed(0)} ms; sandbox ${backend.kind}`);
    await isolationCost(ws, backend, cp);
    await trivialRequest(ws, backend);
    await realProject();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
