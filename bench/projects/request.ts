// One bench request: a bare run of the project's suite, then the real CLI (`fix`, offline mutation generator, 10
// candidates) on the seeded line, its stderr time-stamped line by line; what engaged, read from its log and --json.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chainOf } from './chain';
import type { Chain, Timed } from './chain';

export interface RequestMeasure {
  readonly suiteMs: number;
  readonly suiteExit: number | null;
  readonly wallMs: number;
  readonly exit: number | null;
  /** The log's "per-test results" sentence (engaged or why not). */
  readonly perTest: string;
  readonly perTestEngaged: boolean;
  readonly baselineFailing: number;
  readonly firstVerifiedMs?: number;
  /** When every verdict was in (the list is shown then; strength checks run after it). */
  readonly listedMs?: number;
  readonly candidates: number;
  /** Candidates whose last run was stage 1 (the failing tests alone). */
  readonly stageOneOnly: number;
  readonly timeouts: number;
  readonly failed: number;
  /** Failed candidates whose excerpt names a failing test. */
  readonly excerptsNamingTest: number;
  readonly verified: number;
  /** The strength check's share of the request's wall time, as the CLI's --json reports it (undefined: none ran). */
  readonly strengthShare?: number;
  /** The baseline's own run, as --json reports it. */
  readonly baselineMs?: number;
  /** The median run of the candidates that ended at stage 1: what "the failing tests alone" cost here. */
  readonly stageOneMs?: number;
  /** Each candidate's verdict by index: verified or not. */
  readonly verifiedByIndex: readonly boolean[];
  /** The steps the request took one after another (chain.ts); absent where no baseline ran. */
  readonly chain?: Chain;
  readonly note?: string;
}

function spawnTimed(command: string, args: string[], cwd: string, timeoutMs: number, env?: NodeJS.ProcessEnv): Promise<{ exit: number | null; stdout: string; lines: Timed[]; ms: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...(env ? { env } : {}) });
    const lines: Timed[] = [];
    let stdout = '';
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const text of parts) lines.push({ at: performance.now() - t0, text });
    });
    // A bound so that one hung request cannot stall the bench; the CLI's own total timeout is below it.
    const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ } }, timeoutMs);
    child.on('close', (exit) => {
      clearTimeout(timer);
      if (partial) lines.push({ at: performance.now() - t0, text: partial });
      resolve({ exit, stdout, lines, ms: performance.now() - t0 });
    });
  });
}

let cacheHome: string | undefined;

/**
 * The CLI's XDG_CACHE_HOME for this bench run, made empty at its first request and removed at exit: what one
 * request's baseline keeps for the next on the same workspace (warmStart.ts) starts out empty, as on a machine that
 * never ran the tool, so each project's first request starts cold and its later ones from the one before.
 */
function benchCacheHome(): string {
  if (!cacheHome) {
    const made = mkdtempSync(join(tmpdir(), 'vf-bench-cache-'));
    process.on('exit', () => rmSync(made, { recursive: true, force: true }));
    // Stopped by hand: 'exit' runs only if the process exits itself.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
    cacheHome = made;
  }
  return cacheHome;
}

/** One bare run of the suite as the user runs it: the denominator of every ratio of this request. */
export async function bareSuite(dir: string, command: string): Promise<{ ms: number; exit: number | null }> {
  const { ms, exit } = await spawnTimed('/bin/sh', ['-c', command], dir, 600_000);
  return { ms, exit };
}

interface CandidateJson {
  index: number;
  verified: boolean;
  durationMs: number;
  status: string;
  stage?: string;
  failure?: string;
  reason?: string;
  duplicateOf?: number | null;
}

function namesATest(failure: string | undefined, failing: readonly string[]): boolean {
  if (!failure) return false;
  return failing.some((name) => failure.includes(name)) || /^\s*(✗|not ok|FAILED) /m.test(failure) || /::test_\w+/.test(failure);
}

/**
 * The per-run limit a user with this suite would set: the default 60 s unless the bare suite takes more than a fifth
 * of it. merge-json-schemas' 40 files take 30 s bare at load 5 and 49 s under the sandbox with the baseline's
 * coverage, so at the loads the bench meets its baseline timed out at 60 s and every request stopped with no
 * candidate (the JSON said `"baseline": {"status": "timeout"}` and the bench did not look).
 */
export function runLimitSeconds(suiteMs: number): number {
  return Math.max(60, Math.ceil((5 * suiteMs) / 1000));
}

/** Why a request has fewer verdicts than candidates asked for, in the bench's words (empty when it has them all). */
function noteOf(json: { baseline?: { status?: string }; stoppedEarly?: unknown }, stdout: string, exit: number | null, log: string[], timeout: number): { note?: string } {
  if (!stdout.trim()) return { note: `no JSON (exit ${exit}): ${log.slice(-3).join(' | ').slice(0, 300)}` };
  const notes: string[] = [];
  if (json.baseline?.status === 'timeout') notes.push(`the baseline timed out (per-run limit ${timeout} s), so no candidate was judged`);
  if (json.stoppedEarly) notes.push(`stopped early: ${String(json.stoppedEarly).slice(0, 200)}`);
  if (timeout > 60) notes.push(`--timeout ${timeout} (5× the bare suite)`);
  return notes.length ? { note: notes.join('; ') } : {};
}

/**
 * With VERIFIED_FIX_BENCH_LOGS set to a folder, each request's log goes there with every line's time since the
 * request started: where a request's time went is otherwise lost with the process.
 */
function keepLog(dir: string, file: string, line: number, modeArgs: readonly string[], lines: readonly Timed[]): void {
  const folder = process.env.VERIFIED_FIX_BENCH_LOGS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  const name = [basename(dir), file.replace(/[^\w.-]/g, '_'), line, ...modeArgs].join('-').replace(/^-+/, '');
  writeFileSync(join(folder, `${name}.log`), lines.map((l) => `${(l.at / 1000).toFixed(2).padStart(7)} ${l.text}`).join('\n') + '\n');
}

/** The middle value (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  return sorted.length % 2 ? sorted[sorted.length >> 1] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
}

/** What the candidates that ended at stage 1 took, the median: absent when none did. */
function stageOneOf(candidates: readonly CandidateJson[]): { stageOneMs?: number } {
  const runs = candidates.filter((c) => c.stage === 'failing-tests').map((c) => c.durationMs);
  return runs.length ? { stageOneMs: median(runs) } : {};
}

/** One request with the CLI's defaults, or with `modeArgs` (`--full-suite`, `--no-staged`) added. */
export async function measureRequest(dir: string, command: string, file: string, line: number, modeArgs: readonly string[] = []): Promise<RequestMeasure> {
  const suite = await bareSuite(dir, command);
  const cli = join(process.cwd(), 'dist', 'cli.js');
  const timeout = runLimitSeconds(suite.ms);
  const args = [cli, 'fix', '--workspace', dir, '--file', file, '--lines', `${line}-${line}`, '--test', command, '--samples', '10', '--behaviour', 'off', '--json', '--verbose',
    ...(timeout > 60 ? ['--timeout', String(timeout)] : []), ...modeArgs];
  const { exit, stdout, lines, ms } = await spawnTimed(process.execPath, args, dir, 900_000, { ...process.env, XDG_CACHE_HOME: benchCacheHome() });
  keepLog(dir, file, line, modeArgs, lines);
  const log = lines.map((l) => l.text.replace(/^verified-fix: /, ''));
  const perTest = log.find((l) => l.startsWith('per-test results')) ?? 'no per-test line in the log';
  const firstPass = lines.find((l) => /^candidate #\d+ pass/.test(l.text));
  const listed = lines.find((l) => l.text.startsWith('every verdict is in'));
  let json: { baseline?: { status?: string; perTest?: boolean; failingTests?: string[]; durationMs?: number }; candidates?: CandidateJson[]; verified?: number[]; stoppedEarly?: unknown; strengthCost?: { share?: number } } = {};
  try {
    json = JSON.parse(stdout) as typeof json;
  } catch {
    /* reported below */
  }
  const candidates = json.candidates ?? [];
  const failing = json.baseline?.failingTests ?? [];
  const failed = candidates.filter((c) => c.status !== 'pass');
  const chain = chainOf(lines, json.baseline?.durationMs, candidates);
  return {
    suiteMs: suite.ms, suiteExit: suite.exit, wallMs: ms, exit, perTest, perTestEngaged: json.baseline?.perTest === true,
    baselineFailing: failing.length, firstVerifiedMs: firstPass?.at, listedMs: listed?.at ?? (candidates.length ? ms : undefined),
    candidates: candidates.length, stageOneOnly: candidates.filter((c) => c.stage === 'failing-tests').length,
    timeouts: candidates.filter((c) => c.status === 'timeout').length, failed: failed.length,
    excerptsNamingTest: failed.filter((c) => namesATest(c.failure, failing)).length, verified: json.verified?.length ?? 0,
    strengthShare: json.strengthCost?.share, baselineMs: json.baseline?.durationMs,
    ...stageOneOf(candidates),
    verifiedByIndex: candidates.reduce<boolean[]>((all, c) => ((all[c.index] = c.verified), all), []),
    ...(chain ? { chain } : {}),
    ...(noteOf(json, stdout, exit, log, timeout)),
  };
}
