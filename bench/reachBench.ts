// Reaching-tests benchmark: a 40-file `node --test` suite where 3 files load the target module (one seeded bug, 10
// candidates). Each request's wall time against one bare full suite measured in the same run, the floor, the
// baseline's coverage cost, and the reaching-tests verdicts against the full-suite ones (disagreements must be 0).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFix } from '../src/core/engine/runFix';
import type { FixRequest, FixResult } from '../src/core/contract/fixRequest';
import { createFileProvider } from '../src/core/providers/fileProvider';
import { REACH_HOOK_FILE, REACH_HOOK_SOURCE, REACH_VARIABLE } from '../src/core/localisation/reachHook';

const TEST_FILES = 40;
const REACHING_FILES = 3;
const SUITE_TARGET_MS = 6_000;

/**
 * The busy work every test file does, written into the files as text. Not `checksum.toString()`: the bundler renames
 * a function whose name another bench file also uses (`checksum2`), and the files then called a function they did not
 * define, so every test failed on the unmodified code too and no candidate could pass.
 */
const CHECKSUM_SOURCE = 'function checksum(n) {\n  let h = 0;\n  for (let i = 0; i < n; i++) h = (Math.imul(h, 31) + i) | 0;\n  return h;\n}';
const checksum = new Function(`${CHECKSUM_SOURCE}\nreturn checksum;`)() as (n: number) => number;

const BUGGY_BODY = ['  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;'].join('\n');

/** One fix, one that passes the failing test but breaks a reaching one, and eight wrong in their own ways. */
const CANDIDATES: readonly string[] = [
  '  return Math.min(x, hi);',
  BUGGY_BODY,
  "  throw new RangeError('clamp: not implemented');",
  '  if (x < lo) return lo;\n  if (x > hi) return hi > 0 ? hi : lo;\n  return x;',
  '  if (x < lo) return hi;\n  if (x > hi) return hi;\n  return x;',
  '  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return x;',
  '  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return Math.round(x);',
  '  if (x < lo) return lo;\n  if (x > hi) return hi - 1;\n  return x;',
  '  if (x <= lo) return lo;\n  if (x >= hi) return hi;\n  return x;',
  '  if (x < lo) return lo;\n  if (x > hi) return String(hi);\n  return x;',
];

const lib = `function clamp(x, lo, hi) {\n${BUGGY_BODY}\n}\nmodule.exports = { clamp };\n`;

function writeProject(dir: string, iterations: number): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'reach-bench', private: true }));
  writeFileSync(join(dir, 'src', 'lib.js'), lib);
  const head = "const test = require('node:test');\nconst assert = require('node:assert/strict');\n";
  const work = (i: number) => `${CHECKSUM_SOURCE}\ntest('module ${i}: checksum', () => assert.equal(checksum(${iterations + i}), ${checksum(iterations + i)}));\n`;
  const uses = "const { clamp } = require('../src/lib');\n";
  writeFileSync(join(dir, 'test', 'r0.test.js'), `${head}${uses}${work(0)}test('caps at hi', () => assert.equal(clamp(15, 0, 10), 10));\ntest('keeps inside', () => assert.equal(clamp(5, 0, 10), 5));\n`);
  writeFileSync(join(dir, 'test', 'r1.test.js'), `${head}${uses}${work(1)}test('raises to lo', () => assert.equal(clamp(-5, 0, 10), 0));\n`);
  writeFileSync(join(dir, 'test', 'r2.test.js'), `${head}${uses}${work(2)}test('keeps fractions', () => assert.equal(clamp(2.5, 0, 10), 2.5));\ntest('keeps lo', () => assert.equal(clamp(0, 0, 10), 0));\n`);
  for (let i = REACHING_FILES; i < TEST_FILES; i++) writeFileSync(join(dir, 'test', `m${String(i).padStart(2, '0')}.test.js`), `${head}${work(i)}`);
}

function timeSuite(dir: string, env: NodeJS.ProcessEnv = {}, files: readonly string[] = []): number {
  const t0 = performance.now();
  try {
    // Set at all (even empty), NODE_TEST_CONTEXT makes node --test act as a child of another runner.
    const clean = { ...process.env, ...env };
    delete clean.NODE_TEST_CONTEXT;
    execFileSync(process.execPath, ['--test', ...files], { cwd: dir, stdio: 'ignore', env: clean });
  } catch {
    // The seeded bug fails a test: the time is what counts.
  }
  return performance.now() - t0;
}

/** Sizes the checksum work so that the bare suite takes about SUITE_TARGET_MS here. */
function buildProject(dir: string): void {
  writeProject(dir, 1000);
  const startup = timeSuite(dir) / TEST_FILES;
  const perMs = 2_000_000 / Math.max(1, (() => { const t0 = performance.now(); checksum(2_000_000); return performance.now() - t0; })());
  writeProject(dir, Math.round(Math.max(5, SUITE_TARGET_MS / TEST_FILES - startup) * perMs));
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Candidates whose verdicts differ between two requests: verified or not, first run passed or not. */
function disagreements(a: FixResult, b: FixResult): string[] {
  return a.candidates.flatMap((x) => {
    const y = b.candidates.find((c) => c.index === x.index);
    if (!y) return [`c${x.index}: missing`];
    return x.verified !== y.verified ? [`c${x.index}: ${x.verified ? 'verified' : x.verdict.reason ?? x.verdict.status} vs ${y.verified ? 'verified' : y.verdict.reason ?? y.verdict.status}`] : [];
  });
}

export async function benchReach(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'vf-reach-bench-'));
  try {
    const dir = join(scratch, 'project');
    buildProject(dir);
    const start = lib.indexOf(BUGGY_BODY);
    const parallel = availableParallelism();
    const request = (over: Partial<FixRequest>): FixRequest => ({
      workspace: dir, relativePath: 'src/lib.js', start, end: start + BUGGY_BODY.length, testCommand: 'node --test',
      samples: CANDIDATES.length, testTimeoutMs: 300_000, totalTimeoutMs: 1_800_000, parallel, baselineCheck: true, confirmRuns: 2,
      strengthCheck: 'off', behaviourCheck: 'off', isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 },
      provider: createFileProvider([...CANDIDATES]), ...over,
    });
    const load = () => loadavg()[0].toFixed(1);
    // Bare suites, plain, under the engine's reach hook and under node's own coverage, alternated so that a busy
    // moment does not fall on one kind only.
    const bare: number[] = [];
    const hooked: number[] = [];
    const covered: number[] = [];
    const hookDir = join(scratch, 'hook');
    mkdirSync(hookDir);
    writeFileSync(join(hookDir, REACH_HOOK_FILE), REACH_HOOK_SOURCE);
    for (let r = 0; r < 2; r++) {
      bare.push(timeSuite(dir));
      hooked.push(timeSuite(dir, { [REACH_VARIABLE]: hookDir, NODE_OPTIONS: `--require ${join(hookDir, REACH_HOOK_FILE)}` }));
      covered.push(timeSuite(dir, { NODE_V8_COVERAGE: join(scratch, `cov${r}`) }));
    }
    const failingOnly = timeSuite(dir, {}, ['--test-name-pattern', '^caps at hi$', 'test/r0.test.js']);
    // What the engine's runs that hold every slot do (wideRuns.ts): the honest comparison for them, printed beside.
    const wideBare = timeSuite(dir, {}, [`--test-concurrency=${parallel}`]);
    const suite = Math.min(...bare);
    const runs: Array<[string, Partial<FixRequest>]> = [['reaching tests (default)', {}], ['--full-suite', { fullSuiteForEveryFix: true }], ['--no-staged', { stagedVerification: false }]];
    const results: Array<{ name: string; wallMs: number; result: FixResult }> = [];
    console.log(`reaching tests: ${TEST_FILES} node --test files, ${REACHING_FILES} load the target; ${CANDIDATES.length} candidates, parallel ${parallel}, confirm 2; load ${load()} at the start`);
    for (const [name, over] of runs) {
      const t0 = performance.now();
      const result = await runFix(request(over));
      results.push({ name, wallMs: performance.now() - t0, result });
    }
    const bareAfter = timeSuite(dir);
    const one = Math.min(suite, bareAfter);
    console.log(`  one bare full suite: ${s(one)} (best of ${bare.map(s).join(', ')}, ${s(bareAfter)} after); under the reach hook ${hooked.map(s).join(', ')}: ${(100 * (Math.min(...hooked) / suite - 1)).toFixed(0)}% of a suite (NODE_V8_COVERAGE, used before: ${covered.map(s).join(', ')}, ${(100 * (Math.min(...covered) / suite - 1)).toFixed(0)}%); failing test alone ${s(failingOnly)}; at --test-concurrency=${parallel} (what the engine's baseline and top-fix run use) ${s(wideBare)}`);
    const top = results[0].result;
    console.log(`  failing on the unmodified code: ${top.failingTests.length ? top.failingTests.join(', ') : 'none'} (the fixture seeds one: caps at hi)`);
    const floor = (top.baseline?.durationMs ?? one) + CANDIDATES.length * failingOnly + one;
    for (const { name, wallMs, result } of results) {
      const reach = result.candidates.find((c) => c.reachingTests)?.reachingTests;
      // The engine's share: what the request spent above the floor, the runs the engine chose to add to the least.
      const share = Math.max(0, wallMs - floor) / wallMs;
      console.log(`  ${name}: ${s(wallMs)} = ${(wallMs / one).toFixed(2)}× one suite (target ≤ 1.5×; ${(wallMs / wideBare).toFixed(2)}× one at --test-concurrency=${parallel}), ${(wallMs / floor).toFixed(2)}× the floor, engine's share ${(100 * share).toFixed(0)}%; ` +
        `verified [${result.verified}]${reach ? `; others verified on ${reach.ran} reaching tests (${reach.cannotReach} cannot reach)` : ''}`);
    }
    console.log(`  floor: baseline ${s(top.baseline?.durationMs ?? 0)} + ${CANDIDATES.length} × failing test ${s(failingOnly)} + the top fix's full run ${s(one)} = ${s(floor)}`);
    const differ = disagreements(results[0].result, results[1].result);
    const narrowed = results[0].result.candidates.filter((c) => c.verified && c.reachingTests).length;
    const topRun = results[0].result.candidates.filter((c) => c.verified && !c.reachingTests).length;
    console.log(`  disagreements, reaching-tests verdicts vs full-suite verdicts (per candidate, ${results[0].result.candidates.length} compared, ${narrowed} verified on reaching tests only, ${topRun} also on the full suite): ` +
      `${differ.length} (must be 0)${differ.length ? `: ${differ.join('; ')}` : ''}; load ${load()} at the end`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
