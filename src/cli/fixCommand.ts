// `verified-fix fix …`: runs the engine headless for CI bots and prints diffs, verdicts and statistics.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { runFix } from '../core/engine/runFix';
import { UserError } from '../core/base/errors';
import type { CandidateResult, FixEvent, FixResult } from '../core/contract/fixRequest';
import type { Logger } from '../core/base/logger';
import type { OptionSpec } from '../core/request/options';
import { OPTIONS } from '../core/request/options';
import type { OptionsReading } from '../core/request/readOptions';
import { requestOptions } from '../core/request/requestOptions';
import { appendResults, formatResults, sampleRecords, stableTaskId } from '../core/statistics/resultsFile';
import { bubblewrapHint } from '../core/sandbox/installHint';
import { readUserText } from '../core/base/userFiles';
import { lineRangeToOffsets } from '../core/base/textRange';
import { describeStrength } from '../core/verification/strengthCheck';
import { provenByTests } from '../core/verification/evidence';
import { failureExcerpt as sharedExcerpt } from '../core/testResults/failureExcerpt';
import { fixHelp, fixUsage, readFlags } from './flags';
import { providerFailure } from './providerFailure';
import { createProvidersFromFlags } from './providerFromFlags';
import { describeProtections, protectsLess } from '../core/contract/protections';

export { fixUsage };

/** Bad flags stop the run (exit 2), every one named: a bot must not run with values it did not ask for. */
function stopOnProblems({ problems, given }: OptionsReading): void {
  if (problems.length === 0) return;
  // A required flag left out: the usage line shows what a run needs.
  const missing = problems.some((p) => !given.has(p.option) && (OPTIONS as readonly OptionSpec[]).find((o) => o.name === p.option)?.required);
  throw new UserError(problems.map((p) => p.message).join('\n') + (missing ? `\n${fixUsage}` : ''));
}

function parseLines(text: string | undefined): [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text ?? '');
  if (!match) throw new UserError(`--lines must look like A-B (1-based, inclusive), got "${text ?? ''}"`);
  return [Number(match[1]), Number(match[2] ?? match[1])];
}

function statusLine(c: CandidateResult): string {
  const runs = c.runs.length > 1 ? ` (${c.runs.filter((r) => r.status === 'pass').length}/${c.runs.length} runs passed${c.flaky ? ', flaky' : ''})` : '';
  const proven = c.verified && c.tests ? ` — ${provenByTests(c.tests.fixed.length, c.tests.passed)}` : '';
  const dup = c.duplicateOf !== null ? ` (same as #${c.duplicateOf + 1})` : '';
  const reason = c.verdict.reason ? `: ${c.verdict.reason}` : '';
  // Round 1 goes unsaid: only a repair round's candidates are told apart.
  const round = c.round !== undefined && c.round > 1 ? ` (round ${c.round})` : '';
  // People count from 1, as the extension does; `index` in --json stays the 0-based position in `candidates`.
  return `#${c.index + 1}${round} ${c.verdict.status}${reason}${runs}${dup}, ${(c.verdict.durationMs / 1000).toFixed(1)} s${proven}`;
}

function firstLines(text: string, count: number): string {
  return text.split('\n').filter((l) => l.trim()).slice(0, count).map((l) => `      ${l.slice(0, 200)}`).join('\n');
}

/** Surviving variants printed per verified fix (all are in `--json`). */
const MAX_SURVIVORS_SHOWN = 3;

/** Characters of a failed run's output kept in `--json`: enough for an assertion and its stack, bounded for bots. */
const FAILURE_EXCERPT_CHARS = 2000;

/** The first lines of a failure (its reason first), as a bot would quote them. */
function failureExcerpt(verdict: CandidateResult['verdict']): string {
  const text = [verdict.reason, ...sharedExcerpt(verdict, 30)].filter(Boolean).join('\n');
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
    lost: result.lost.map((l) => l.message),
    k: result.k,
    passAtK: result.passAtK,
    passHatK: result.passHatK,
    candidates: result.candidates.map((c) => ({
      index: c.index,
      ...(c.round !== undefined ? { round: c.round } : {}),
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
      ...(c.strength ? { strength: { variants: c.strength.variants, caught: c.strength.caught, weak: c.strength.weak, survivors: c.strength.survivors.map(({ replacement, diff }) => ({ replacement, diff })) } } : {}),
    })),
    verified: result.verified,
    ...(result.stoppedEarly ? { stoppedEarly: result.stoppedEarly.message } : {}),
    durationMs: result.durationMs,
  };
}

function humanReport(result: FixResult): string {
  const out: string[] = [];
  if (result.baselinePassed) out.push('WARNING: the tests already pass on the unmodified code, so they do not catch the bug: a passing candidate proves little.', '');
  if (result.stoppedEarly) out.push(`Stopped early (${result.stoppedEarly.message}); reporting what finished.`, '');
  if (result.verified.length > 0) {
    out.push(`${result.verified.length} verified fix${result.verified.length === 1 ? '' : 'es'} (best first):`, '');
    if (result.verified.length > 1) out.push(`${result.verified.length} different fixes pass: the tests do not decide between them, so read each.`, '');
    for (const index of result.verified) {
      const c = result.candidates[result.candidates.findIndex((x) => x.index === index)];
      out.push(`candidate ${statusLine(c)}${c.label ? ` — ${c.label}` : ''}`);
      if (c.strength) out.push(`  ${describeStrength(c.strength)}`);
      out.push(c.diff);
      // The first surviving variants, so a reviewer sees what else the tests would accept.
      for (const survivor of c.strength?.survivors.slice(0, MAX_SURVIVORS_SHOWN) ?? []) out.push(`  also passes: ${survivor.label}`, survivor.diff);
    }
  } else if (result.samples === 0) {
    out.push('No candidate was produced, so nothing was tested.');
  } else {
    out.push(`No passing fix found (0 of ${result.samples} passed).`);
    for (const c of result.candidates) {
      out.push(`  ${statusLine(c)}`);
      const failure = c.verdict.output || c.verdict.failures ? firstLines(sharedExcerpt(c.verdict, 5).join('\n'), 5) : firstLines(c.verdict.reason ?? '', 5);
      if (failure && c.duplicateOf === null) out.push(failure);
    }
  }
  const stat = (name: string, values: Readonly<Record<string, number>>) =>
    Object.entries(values).map(([k, v]) => `${name.replace('k', k)} ${(100 * v).toFixed(1)}%`).join(', ');
  // Lost samples are not in n, so the count says so next to it; a statistic with no values is left out, not printed empty.
  const lost = result.lost.length > 0 ? `, ${result.lost.length} lost (not counted in n)` : '';
  const summary = [`${result.passed} of ${result.samples} samples passed${lost}`, stat('pass@k', result.passAtK), stat('pass^k', result.passHatK)];
  if (result.samples > 0 || result.lost.length > 0) out.push('', summary.filter(Boolean).join('; '));
  if (result.lost.length > 0) out.push(`${result.lost.length} sample(s) could not be obtained: ${[...new Set(result.lost.map((l) => l.message))].join('; ')}`);
  return out.join('\n');
}

export async function runFixCommand(argv: string[], out: (text: string) => void, err: (text: string) => void): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(fixHelp());
    return 0;
  }
  let reading = readFlags(argv);
  stopOnProblems(reading);
  const lines = parseLines(reading.values.lines);
  const notice = (line: string) => err(`verified-fix: ${line}`);
  const { provider, fallbackProvider, defaultSamples } = await createProvidersFromFlags(reading.values, reading.given, notice);
  if (defaultSamples !== undefined && !reading.given.has('samples')) {
    // The provider knows its own count (the file's candidates): read again so k is checked against it.
    reading = readFlags(argv, defaultSamples);
    stopOnProblems(reading);
  }
  const { values } = reading;
  const workspace = resolve(values.workspace);
  const logger: Logger = {
    trace: () => undefined,
    info: (m) => values.verbose && err(`verified-fix: ${m}`),
    warn: (m) => err(`verified-fix: warning: ${m}`),
    error: (m) => values.verbose && err(`verified-fix: ${m instanceof Error ? m.stack : m}`),
  };
  const text = await readUserText(resolve(workspace, values.file), values.file, `file not found: ${values.file} (in ${workspace})`);
  const { start, end } = lineRangeToOffsets(text, lines[0], lines[1]);

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const onEvent = (event: FixEvent) => {
    if (event.type === 'started') {
      err(`verified-fix: testing with "${event.testCommand}" (${describeProtections(event.protections)})`);
      if (protectsLess(event.protections)) err(`verified-fix: warning: this system protects less than bubblewrap would (see above); ${bubblewrapHint()}`);
    }
    if (event.type === 'baseline') err(`baseline (unmodified code): ${event.verdict.status}${event.verdict.reason ? `: ${event.verdict.reason}` : ''}, ${(event.verdict.durationMs / 1000).toFixed(1)} s`);
    if (event.type === 'verdict') err(`candidate ${statusLine(event.candidate)}`);
    if (event.type === 'lost') err(`sample lost: ${event.reason}`);
    if (event.type === 'fallback') err(`no candidate was verified; asking ${event.provider}`);
    if (event.type === 'repairRound') err(`round ${event.round}: asking ${event.provider} for different fixes after ${event.failed} failed candidate${event.failed === 1 ? '' : 's'}`);
    if (event.type === 'verdicts') err('every verdict is in; checking how firmly the tests pin the verified fixes');
    if (event.type === 'strength') err(`candidate #${event.index + 1}: ${describeStrength(event.strength)}`);
  };
  try {
    const result = await runFix(
      {
        workspace,
        relativePath: values.file,
        start,
        end,
        unsavedText: text,
        ...requestOptions(values, availableParallelism()),
        provider,
        ...(fallbackProvider ? { fallbackProvider } : {}),
        signal: controller.signal,
        logger,
      },
      onEvent,
    );
    // Every sample lost: nothing was tested, so "no fix" would mislead; the one sentence goes to stderr.
    const failure = providerFailure(result, values);
    if (values.json) out(JSON.stringify(fixJson(result, lines)));
    else if (!failure) out(humanReport(result));
    // Resolved against the caller's folder, not the workspace: it is the bot's file, not the project's. Written after
    // the report, so a results file that cannot be written still leaves the fix on stdout.
    if (values.results !== undefined && values.results !== '') {
      const taskId = stableTaskId(values.file, lines, text.slice(start, end));
      await appendResults(resolve(values.results), formatResults([{ taskId, samples: sampleRecords(result) }]));
    }
    if (failure) {
      err(`verified-fix: ${failure}`);
      return 2;
    }
    return result.verified.length > 0 ? 0 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
