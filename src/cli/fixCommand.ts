// `verified-fix fix …`: runs the engine headless for CI bots and prints diffs, verdicts and statistics.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runFix } from '../core/engine';
import { UserError } from '../core/errors';
import type { CandidateResult, FixEvent, FixResult } from '../core/fixRequest';
import { DEFAULT_LINKED_FOLDERS } from '../core/fixRequest';
import type { Logger } from '../core/logger';
import { describeProtections, protectsLess } from '../core/sandbox/backend';
import { BACKEND_CHOICES } from '../core/sandbox/detect';
import type { BackendChoice } from '../core/sandbox/detect';
import { readUserText } from '../core/userFiles';
import { lineRangeToOffsets } from '../core/textRange';
import { provenByTests } from '../core/testEvidence';
import { createProviderFromFlags, providerOptions } from './providerFromFlags';

export const fixUsage =
  'usage: verified-fix fix --workspace DIR --file REL --lines A-B [--provider mutation|file|openai-compatible] [--candidates FILE.json] ' +
  '[--endpoint URL --model NAME [--temperature T] [--stream]] [--fallback-provider NAME] ' +
  '[--samples N] [--k K] [--test "CMD"] [--timeout SEC] [--total-timeout SEC] [--parallel P] [--confirm-runs R] [--no-baseline] [--no-staged] ' +
  '[--allow-network] [--memory-mb MB] [--pass-env NAME,…] [--sandbox auto|bwrap|unshare|process-group] [--link node_modules,.venv] [--exclude DIR,…] [--json] [--verbose]';

function int(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new UserError(`${flag} must be a whole number, got "${text}"`);
  return Number(text);
}

/** A flag given in seconds, as milliseconds. */
function milliseconds(flag: string, text: string | undefined, fallbackMs: number): number {
  if (text === undefined) return fallbackMs;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UserError(`${flag} must be a positive number of seconds, got "${text}"`);
  return value * 1000;
}

function sandboxKind(text: string | undefined): BackendChoice {
  if (text === undefined) return 'auto';
  if ((BACKEND_CHOICES as readonly string[]).includes(text)) return text as BackendChoice;
  throw new UserError(`--sandbox must be one of ${BACKEND_CHOICES.join(', ')}, got "${text}"`);
}

function parseLines(text: string | undefined): [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text ?? '');
  if (!match) throw new UserError(`--lines must look like A-B (1-based, inclusive), got "${text ?? ''}"`);
  return [Number(match[1]), Number(match[2] ?? match[1])];
}

function list(text: string | undefined, fallback: readonly string[]): string[] {
  return text === undefined ? [...fallback] : text.split(',').map((s) => s.trim()).filter(Boolean);
}

function statusLine(c: CandidateResult): string {
  const runs = c.runs.length > 1 ? ` (${c.runs.filter((r) => r.status === 'pass').length}/${c.runs.length} runs passed${c.flaky ? ', flaky' : ''})` : '';
  const proven = c.verified && c.tests ? ` — ${provenByTests(c.tests.fixed.length, c.tests.passed)}` : '';
  const dup = c.duplicateOf !== null ? ` (same as #${c.duplicateOf})` : '';
  const reason = c.verdict.reason ? `: ${c.verdict.reason}` : '';
  return `#${c.index} ${c.verdict.status}${reason}${runs}${dup}, ${(c.verdict.durationMs / 1000).toFixed(1)} s${proven}`;
}

function firstLines(text: string, count: number): string {
  return text.replace(/^\[… \d+ earlier bytes dropped …\]\n/, '').split('\n').filter((l) => l.trim()).slice(0, count).map((l) => `      ${l.slice(0, 200)}`).join('\n');
}

/** Characters of a failed run's output kept in `--json`: enough for an assertion and its stack, bounded for bots. */
const FAILURE_EXCERPT_CHARS = 2000;

/** The first lines of a failure (its reason first), as a bot would quote them. */
function failureExcerpt(verdict: CandidateResult['verdict']): string {
  const output = verdict.output.replace(/^\[… \d+ earlier bytes dropped …\]\n/, '').trim();
  const text = [verdict.reason, output].filter(Boolean).join('\n');
  return text.length > FAILURE_EXCERPT_CHARS ? `${text.slice(0, FAILURE_EXCERPT_CHARS)}…` : text;
}

/** The `--json` object, as documented in the README. */
export function fixJson(result: FixResult, lines: [number, number]): object {
  return {
    file: result.relativePath,
    lines,
    testCommand: result.testCommand,
    baseline: result.baseline
      ? { status: result.baseline.status, durationMs: result.baseline.durationMs, perTest: result.perTest, failingTests: result.failingTests }
      : null,
    baselinePassed: result.baselinePassed,
    samples: result.samples,
    passed: result.passed,
    lost: result.lost,
    k: result.k,
    passAtK: result.passAtK,
    passHatK: result.passHatK,
    candidates: result.candidates.map((c) => ({
      index: c.index,
      status: c.verdict.status,
      ...(c.verdict.reason ? { reason: c.verdict.reason } : {}),
      durationMs: c.verdict.durationMs,
      duplicateOf: c.duplicateOf,
      runs: c.runs.map((r) => r.status),
      verified: c.verified,
      flaky: c.flaky,
      replacement: c.replacement,
      diff: c.diff,
      ...(c.stage ? { stage: c.stage } : {}),
      ...(c.tests ? { tests: { fixed: c.tests.fixed, broke: c.tests.broke, passed: c.tests.passed, failed: c.tests.failed } } : {}),
      ...(c.verdict.status !== 'pass' ? { failure: failureExcerpt(c.verdict) } : {}),
    })),
    verified: result.verified,
    ...(result.stoppedEarly ? { stoppedEarly: result.stoppedEarly } : {}),
    durationMs: result.durationMs,
  };
}

function humanReport(result: FixResult): string {
  const out: string[] = [];
  if (result.baselinePassed) out.push('WARNING: the tests already pass on the unmodified code, so they do not catch the bug: a passing candidate proves little.', '');
  if (result.stoppedEarly) out.push(`Stopped early (${result.stoppedEarly}); reporting what finished.`, '');
  if (result.verified.length > 0) {
    out.push(`${result.verified.length} verified fix${result.verified.length === 1 ? '' : 'es'} (best first):`, '');
    for (const index of result.verified) {
      const c = result.candidates[result.candidates.findIndex((x) => x.index === index)];
      out.push(`candidate ${statusLine(c)}${c.label ? ` — ${c.label}` : ''}`, c.diff);
    }
  } else {
    out.push(`No passing fix found (0 of ${result.samples} passed).`);
    for (const c of result.candidates) {
      out.push(`  ${statusLine(c)}`);
      const failure = firstLines(c.verdict.output || c.verdict.reason || '', 5);
      if (failure && c.duplicateOf === null) out.push(failure);
    }
  }
  const stat = (name: string, values: Readonly<Record<string, number>>) =>
    Object.entries(values).map(([k, v]) => `${name.replace('k', k)} ${(100 * v).toFixed(1)}%`).join(', ');
  out.push('', `${result.passed} of ${result.samples} samples passed; ${stat('pass@k', result.passAtK)}; ${stat('pass^k', result.passHatK)}`);
  if (result.lost.length > 0) out.push(`${result.lost.length} sample(s) could not be obtained: ${[...new Set(result.lost)].join('; ')}`);
  return out.join('\n');
}

export async function runFixCommand(argv: string[], out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      workspace: { type: 'string' }, file: { type: 'string' }, lines: { type: 'string' },
      samples: { type: 'string' }, k: { type: 'string' }, test: { type: 'string' },
      timeout: { type: 'string' }, 'total-timeout': { type: 'string' }, parallel: { type: 'string' },
      'confirm-runs': { type: 'string' }, 'no-baseline': { type: 'boolean', default: false }, 'no-staged': { type: 'boolean', default: false },
      'allow-network': { type: 'boolean', default: false }, 'memory-mb': { type: 'string' },
      link: { type: 'string' }, exclude: { type: 'string' }, 'pass-env': { type: 'string' }, sandbox: { type: 'string' },
      json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false },
      ...providerOptions,
    },
    allowPositionals: false,
  });
  if (!values.workspace || !values.file || !values.lines) throw new UserError(`--workspace, --file and --lines are required\n${fixUsage}`);
  const workspace = resolve(values.workspace);
  const lines = parseLines(values.lines);
  const logger: Logger = {
    trace: () => undefined,
    info: (m) => values.verbose && err(`verified-fix: ${m}`),
    warn: (m) => err(`verified-fix: warning: ${m}`),
    error: (m) => values.verbose && err(`verified-fix: ${m instanceof Error ? m.stack : m}`),
  };
  const { provider, fallbackProvider, defaultSamples } = await createProviderFromFlags(values, (line) => err(`verified-fix: ${line}`));
  const samples = int('--samples', values.samples, defaultSamples);
  const k = int('--k', values.k, Math.min(5, samples));
  const text = await readUserText(resolve(workspace, values.file), values.file, `file not found: ${values.file} (in ${workspace})`);
  const { start, end } = lineRangeToOffsets(text, lines[0], lines[1]);

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const onEvent = (event: FixEvent) => {
    if (event.type === 'started') {
      err(`verified-fix: testing with "${event.testCommand}" (${describeProtections(event.protections)})`);
      if (protectsLess(event.protections)) err('verified-fix: warning: this system protects less than bubblewrap would (see above); on Debian or Ubuntu: sudo apt install bubblewrap');
    }
    if (event.type === 'baseline') err(`baseline (unmodified code): ${event.verdict.status}${event.verdict.reason ? `: ${event.verdict.reason}` : ''}, ${(event.verdict.durationMs / 1000).toFixed(1)} s`);
    if (event.type === 'verdict') err(`candidate ${statusLine(event.candidate)}`);
    if (event.type === 'lost') err(`sample lost: ${event.reason}`);
    if (event.type === 'fallback') err(`no candidate was verified; asking ${event.provider}`);
  };
  try {
    const result = await runFix(
      {
        workspace,
        relativePath: values.file,
        start,
        end,
        unsavedText: text,
        ...(values.test ? { testCommand: values.test } : {}),
        samples,
        k,
        testTimeoutMs: milliseconds('--timeout', values.timeout, 60_000),
        totalTimeoutMs: milliseconds('--total-timeout', values['total-timeout'], 600_000),
        parallel: int('--parallel', values.parallel, availableParallelism()),
        baselineCheck: !values['no-baseline'],
        confirmRuns: int('--confirm-runs', values['confirm-runs'], 2),
        stagedVerification: !values['no-staged'],
        isolation: {
          linkedFolders: list(values.link, DEFAULT_LINKED_FOLDERS),
          excludes: list(values.exclude, []),
          allowNetwork: values['allow-network'] ?? false,
          memoryMB: int('--memory-mb', values['memory-mb'], 4096),
          passEnv: list(values['pass-env'], []),
          backend: sandboxKind(values.sandbox),
        },
        provider,
        ...(fallbackProvider ? { fallbackProvider } : {}),
        signal: controller.signal,
        logger,
      },
      onEvent,
    );
    out(values.json ? JSON.stringify(fixJson(result, lines)) : humanReport(result));
    return result.verified.length > 0 ? 0 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
