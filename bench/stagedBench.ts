// Staged verification benchmark: one request over a 100-file `node --test` suite, staged against full suite per candidate.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFix } from '../src/core/engine/runFix';
import type { CandidateResult, FixEvent, FixRequest, FixResult } from '../src/core/contract/fixRequest';
import { createFileProvider } from '../src/core/providers/fileProvider';

// In all: the passing files plus clamp.test.js and scale.test.js, which hold the two failing tests.
const TEST_FILES = 100;
const PASSING_FILES = TEST_FILES - 2;
// A suite long enough that skipping it matters, short enough that the case (about a dozen suites) fits in minutes.
const SUITE_TARGET_MS = 11_000;
// Every test does some work of its own even where process start-up alone reaches the target.
const MIN_WORK_MS = 5;
const SAMPLE_FILES = 10;
const CONFIRM_RUNS = 2;

/** The work each test does. Its own source goes into the project, so the tests' expected values come from the same code. */
function checksum(n: number): number {
  let h = 0;
  for (let i = 0; i < n; i++) h = (Math.imul(h, 31) + i) | 0;
  return h;
}

// Seeded bug: a value above the range comes back as `lo`. Only two tests look above the range.
const BUGGY_BODY = ['  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;'].join('\n');

/**
 * Replacements for the body of clamp: one fix and nine wrong answers, each wrong in its own way. A provider's order
 * is no ranking, so the fix sits mid-list: first, its full runs would start right after the baseline and flatter
 * the staged request.
 */
const CANDIDATES: ReadonlyArray<{ label: string; text: string }> = [
  // This one and "rounds" fix both failing tests and break others: stage 1 lets them through, the full suite does not.
  { label: 'drops the lower bound', text: '  return Math.min(x, hi);' },
  { label: 'unchanged', text: BUGGY_BODY },
  { label: 'throws', text: "  throw new RangeError('clamp: not implemented');" },
  { label: 'fixes one of two', text: '  if (x < lo) return lo;\n  if (x > hi) return hi > 0 ? hi : lo;\n  return x;' },
  // Refused before any run: the engine reads `process.exit` in the edit.
  { label: 'exits 0', text: '  process.exit(0);' },
  { label: 'fix', text: '  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return x;' },
  { label: 'rounds (breaks every file)', text: '  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return Math.round(x);' },
  { label: 'syntax error', text: '  if (x < lo) return lo;\n  if (x > hi) { return hi;\n  return x;' },
  // The same exit out of the edit check's sight: Node 20 then reports each test file as passed with its tests
  // missing, which only the per-test judgement catches.
  { label: 'exits 0 by a computed name', text: "  globalThis['proc' + 'ess']['ex' + 'it'](0);" },
  { label: 'returns a string', text: '  if (x < lo) return lo;\n  if (x > hi) return String(hi);\n  return x;' },
];

function libSource(): string {
  return [
    '// A small numeric library with a seeded bug in clamp.',
    checksum.toString(),
    'function clamp(x, lo, hi) {',
    BUGGY_BODY,
    '}',
    'function scale(x, lo, hi) {',
    '  return clamp((x - lo) / (hi - lo), 0, 1);',
    '}',
    'module.exports = { checksum, clamp, scale };',
    '',
  ].join('\n');
}

const HEADER = "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { checksum, clamp, scale } = require('../src/lib');\n";

/** Writes the project: src/lib.js, the passing test files and the two files holding the failing tests. */
function writeProject(dir: string, iterations: number): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'staged-bench', private: true, scripts: { test: 'node --test' } }, null, 2));
  writeFileSync(join(dir, 'src', 'lib.js'), libSource());
  const work = (i: number) => `test('module ${i}: checksum', () => assert.equal(checksum(${iterations + i}), ${checksum(iterations + i)}));\n`;
  for (let i = 0; i < PASSING_FILES; i++) {
    const name = `m${String(i).padStart(3, '0')}.test.js`;
    writeFileSync(join(dir, 'test', name), `${HEADER}${work(i)}test('module ${i}: clamp keeps ${i}.5', () => assert.equal(clamp(${i}.5, 0, 1000), ${i}.5));\n`);
  }
  writeFileSync(join(dir, 'test', 'clamp.test.js'), HEADER + work(PASSING_FILES) + [
    "test('clamps values above a negative range', () => assert.equal(clamp(-1, -10, -5), -5));",
    "test('clamps values below the range', () => assert.equal(clamp(-20, -10, -5), -10));",
    "test('keeps values inside the range', () => assert.equal(clamp(-7, -10, -5), -7));",
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'test', 'scale.test.js'), HEADER + work(PASSING_FILES + 1) + [
    "test('scale saturates above the range', () => assert.equal(scale(15, 0, 10), 1));",
    "test('scale maps inside values', () => assert.equal(scale(2.5, 0, 10), 0.25));",
    '',
  ].join('\n'));
}

/** checksum iterations per millisecond in this process (best of five, so a busy moment does not inflate the work). */
function iterationsPerMs(): number {
  const n = 2_000_000;
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    checksum(n);
    best = Math.min(best, performance.now() - t0);
  }
  return n / best;
}

/**
 * Sizes the tests' work so that the full suite takes about SUITE_TARGET_MS here: a few files are run without work to
 * learn what a file costs in start-up alone (on a slow machine that is most of the suite), the rest is CPU work.
 */
function buildProject(dir: string): { workMs: number; startupMs: number } {
  writeProject(dir, 1000);
  const files = Array.from({ length: SAMPLE_FILES }, (_, i) => `test/m${String(i).padStart(3, '0')}.test.js`);
  const t0 = performance.now();
  execFileSync(process.execPath, ['--test', ...files], { cwd: dir, stdio: 'ignore' });
  const startupMs = (performance.now() - t0) / SAMPLE_FILES;
  const workMs = Math.max(MIN_WORK_MS, SUITE_TARGET_MS / TEST_FILES - startupMs);
  writeProject(dir, Math.round(workMs * iterationsPerMs()));
  return { workMs, startupMs };
}

interface Measured {
  readonly result: FixResult;
  readonly wallMs: number;
  /** When each verdict (and the baseline) arrived, in ms from the start of the request. */
  readonly timeline: ReadonlyArray<{ atMs: number; what: string }>;
}

async function measure(request: FixRequest): Promise<Measured> {
  const timeline: Array<{ atMs: number; what: string }> = [];
  const t0 = performance.now();
  const onEvent = (event: FixEvent) => {
    const atMs = performance.now() - t0;
    if (event.type === 'baseline') timeline.push({ atMs, what: 'baseline' });
    if (event.type === 'verdict') timeline.push({ atMs, what: describe(event.candidate) });
  };
  const result = await runFix(request, onEvent);
  return { result, wallMs: performance.now() - t0, timeline };
}

function describe(c: CandidateResult): string {
  if (c.verified) return `c${c.index} verified`;
  if (c.stage === 'failing-tests') return `c${c.index} rejected at stage 1`;
  // No stage: refused before it ran (an edit to how the tests run).
  return c.stage === 'full' ? `c${c.index} ${c.verdict.status} on the full suite` : `c${c.index} refused unrun`;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

/**
 * Test time a request spent: the baseline plus every run of every candidate (duplicates share their original's runs,
 * so they are left out). A candidate rejected at stage 1 has that run as its only entry in `runs` (it is also its
 * `verdict`, with `stage: 'failing-tests'`), so `runs` counts it. A staged candidate that passed stage 1 keeps only
 * its full-suite runs in `runs`: its stage-1 run is reported nowhere, so it is estimated as the median stage-1 run of
 * the rejected candidates (the same two test files under the same name pattern) and returned apart.
 */
function testTime(result: FixResult, staged: boolean): { measuredMs: number; estimatedMs: number } {
  const own = result.candidates.filter((c) => c.duplicateOf === null);
  let measuredMs = result.baseline?.durationMs ?? 0;
  for (const c of own) for (const run of c.runs) measuredMs += run.durationMs;
  const stageOne = own.filter((c) => c.stage === 'failing-tests').map((c) => c.verdict.durationMs);
  const hidden = staged && result.failingTests.length > 0 ? own.filter((c) => c.stage === 'full').length : 0;
  return { measuredMs, estimatedMs: hidden * median(stageOne) };
}

/** Lines saying where the two requests disagree: verified or not, first run passed or not. Empty when they agree. */
function mismatches(staged: FixResult, unstaged: FixResult): string[] {
  const lines: string[] = [];
  if (staged.verified.join() !== unstaged.verified.join()) lines.push(`verified set: staged [${staged.verified}] vs unstaged [${unstaged.verified}]`);
  for (const a of staged.candidates) {
    const b = unstaged.candidates.find((c) => c.index === a.index);
    const label = CANDIDATES[a.index]?.label ?? '?';
    if (!b) lines.push(`c${a.index} (${label}): missing from the unstaged result`);
    else if (a.verified !== b.verified || (a.verdict.status === 'pass') !== (b.verdict.status === 'pass')) {
      lines.push(`c${a.index} (${label}): staged ${a.verdict.status}${a.verified ? ' verified' : ''} (${a.verdict.reason ?? ''}) vs ` +
        `unstaged ${b.verdict.status}${b.verified ? ' verified' : ''} (${b.verdict.reason ?? ''})`);
    }
  }
  if (staged.candidates.length !== unstaged.candidates.length) lines.push(`candidates: staged ${staged.candidates.length} vs unstaged ${unstaged.candidates.length}`);
  return lines;
}

/** "baseline 12.1 s; c3, c4 rejected at stage 1 12.9–14.0 s; …": consecutive events of the same kind grouped. */
function formatTimeline(timeline: Measured['timeline']): string {
  const groups: Array<{ kind: string; names: string[]; from: number; to: number }> = [];
  for (const { atMs, what } of timeline) {
    const [name, ...rest] = what.split(' ');
    const kind = what === 'baseline' ? 'baseline' : rest.join(' ');
    const last = groups[groups.length - 1];
    if (last && last.kind === kind && kind !== 'baseline') {
      last.names.push(name);
      last.to = atMs;
    } else groups.push({ kind, names: kind === 'baseline' ? [] : [name], from: atMs, to: atMs });
  }
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return groups.map((g) => `${g.names.length ? `${g.names.join(', ')} ` : ''}${g.kind} ${g.from === g.to ? s(g.from) : `${s(g.from)}–${s(g.to)}`} s`).join('; ');
}

/**
 * Runs the same request staged and with every candidate on the full suite, and prints the times, the test time
 * saved, whether the verdicts agree and how far the staged request is from what two cores need at least.
 */
export async function benchStaged(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'vf-staged-bench-'));
  try {
    const dir = join(scratch, 'project');
    const { workMs, startupMs } = buildProject(dir);
    const lib = libSource();
    const start = lib.indexOf(BUGGY_BODY);
    const parallel = availableParallelism();
    const request = (stagedVerification: boolean): FixRequest => ({
      workspace: dir, relativePath: 'src/lib.js', start, end: start + BUGGY_BODY.length, testCommand: 'node --test',
      samples: CANDIDATES.length, testTimeoutMs: 180_000, totalTimeoutMs: 900_000, parallel, baselineCheck: true,
      confirmRuns: CONFIRM_RUNS, stagedVerification, isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 },
      provider: createFileProvider(CANDIDATES.map((c) => c.text)),
    });
    // Staged first: if anything, the second request runs on a warmer file cache, which favours the unstaged one.
    const staged = await measure(request(true));
    const unstaged = await measure(request(false));
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const suite = staged.result.baseline?.durationMs ?? 0;
    const { failingTests } = staged.result;
    console.log(`staged verification: ${TEST_FILES} test files under node --test (about ${startupMs.toFixed(0)} ms start-up + ${workMs.toFixed(0)} ms work each), ` +
      `${failingTests.length} failing on the seeded bug, ${CANDIDATES.length} candidates, parallel ${parallel}, ${CONFIRM_RUNS} confirmation runs`);
    console.log(`  full suite (the baseline's run): ${s(suite)} in the staged request, ${s(unstaged.result.baseline?.durationMs ?? 0)} in the unstaged one ` +
      `(where it shares the machine with a candidate's run)`);
    console.log(`  request time: staged ${s(staged.wallMs)}, unstaged (full suite per candidate) ${s(unstaged.wallMs)}: ratio ${(staged.wallMs / unstaged.wallMs).toFixed(2)} (target ≤ 0.3)`);
    const problems = mismatches(staged.result, unstaged.result);
    if (problems.length === 0) console.log(`  verdicts identical: yes (verified [${staged.result.verified}], the same pass/fail for all ${staged.result.candidates.length} candidates)`);
    for (const line of problems) console.log(`  MISMATCH ${line}`);
    const a = testTime(unstaged.result, false);
    const b = testTime(staged.result, true);
    console.log(`  test-seconds: unstaged ${s(a.measuredMs)}, staged ${s(b.measuredMs + b.estimatedMs)} (of which ${s(b.estimatedMs)} estimated: ` +
      `the stage-1 runs of candidates that passed it are not in the result) = ${s(a.measuredMs - b.measuredMs - b.estimatedMs)} saved`);
    // What the staged request cannot avoid: the baseline, then each verified candidate's runs one after another (each
    // `node --test` suite keeps one core busy here, so the other core absorbs stage 1 and the stage-2 rejections).
    const verifiedRuns = staged.result.candidates.filter((c) => c.verified && c.duplicateOf === null).reduce((n, c) => n + c.runs.length, 0);
    const ideal = suite * (1 + verifiedRuns);
    console.log(`  ideal on ${parallel} cores: the baseline + ${verifiedRuns} full run(s) of the verified fix = ${1 + verifiedRuns} full suites ≈ ${s(ideal)}; ` +
      `staged took ${(staged.wallMs / ideal).toFixed(2)}× that, unstaged ${(unstaged.wallMs / ideal).toFixed(2)}×`);
    const outcomes = staged.result.candidates.map((c) => `${describe(c)} (${CANDIDATES[c.index]?.label}${c.verified ? '' : `: ${c.verdict.reason ?? c.verdict.status}`})`);
    console.log(`  staged verdicts: ${outcomes.join('; ')}`);
    console.log(`  staged timeline: ${formatTimeline(staged.timeline)}`);
    console.log(`  unstaged timeline: ${formatTimeline(unstaged.timeline)}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
