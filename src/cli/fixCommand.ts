// `verified-fix fix …`: runs the engine headless for CI bots and prints diffs, verdicts and statistics.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { runFix } from '../core/engine/runFix';
import { showControls } from '../core/base/ansi';
import { UserError } from '../core/base/errors';
import type { CandidateResult, FixEvent, FixRequest, FixResult } from '../core/contract/fixRequest';
import { runWorkspaceFix } from '../core/engine/workspaceFix';
import type { WorkspaceFixResult } from '../core/engine/workspaceFix';
import type { LocalisedWorkspace } from '../core/engine/workspaceLocalisation';
import type { Logger } from '../core/base/logger';
import type { OptionSpec } from '../core/request/options';
import { OPTIONS } from '../core/request/options';
import type { OptionsReading } from '../core/request/readOptions';
import { requestOptions } from '../core/request/requestOptions';
import { appendResults, formatResults, requestTaskId, sampleRecords } from '../core/statistics/resultsFile';
import { weakerSandboxAdvice } from '../core/sandbox/detect';
import { readUserText } from '../core/base/userFiles';
import { lineRangeToOffsets } from '../core/base/textRange';
import { describeStrength, strengthKnown } from '../core/verification/strengthCheck';
import { describeStrengthCost } from '../core/verification/strengthBudget';
import type { TestStrength } from '../core/contract/strength';
import { describeBehaviour, undecidedLine } from '../core/behaviour/describe';
import { candidateLine, describeEvent } from '../core/engine/describeEvent';
import { taskPassAtK } from '../core/statistics/passAtK';
import { CLI_NAMES, noFixAdvice } from '../core/verification/noFixAdvice';
import { failureExcerpt as sharedExcerpt } from '../core/testResults/failureExcerpt';
import { FULL_RUN_NOT_REACHED, verifiedOn } from '../core/verification/evidence';
import { fixHelp, fixUsage, readFlags } from './flags';
import { providerFailure } from './providerFailure';
import { localisationJson, localisationLines, localisedLines, workspaceTaskRecords } from './workspaceReport';
import { createProvidersFromFlags } from './providerFromFlags';
import { protectsLess } from '../core/contract/protections';

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

/** Surviving variants printed per verified fix (all are in `--json`). */
const MAX_SURVIVORS_SHOWN = 3;

/** Characters of a failed run's output kept in `--json`: enough for an assertion and its stack, bounded for bots. */
const FAILURE_EXCERPT_CHARS = 2000;

/** The first lines of a failure (its reason first), as a bot would quote them. */
function failureExcerpt(verdict: CandidateResult['verdict']): string {
  const text = [verdict.reason, ...sharedExcerpt(verdict, 30)].filter(Boolean).join('\n');
  return text.length > FAILURE_EXCERPT_CHARS ? `${text.slice(0, FAILURE_EXCERPT_CHARS)}…` : text;
}

function strengthJson(s: TestStrength): object {
  const survivors = s.survivors.map(({ replacement, diff }) => ({ replacement, diff }));
  const shared = s.sharedFrom ? { sharedWith: s.sharedFrom.index + 1, sharedBy: s.sharedFrom.by } : {};
  const reach = s.reachingTests ? { reachingTests: { ran: s.reachingTests.ran, cannotReach: s.reachingTests.cannotReach } } : {};
  return { variants: s.variants, caught: s.caught, weak: s.weak, undecided: s.undecided ?? 0, known: s.variants > 0 && strengthKnown(s), survivors, ...shared, ...reach };
}

/** One run as `--json` keeps it: enough to tell afterwards why a confirmation failed. */
function runDetail(run: CandidateResult['verdict'], setAside: string | undefined): object {
  return {
    status: run.status,
    ...(run.reason ? { reason: run.reason } : {}),
    durationMs: run.durationMs,
    ...(run.status !== 'pass' ? { failure: failureExcerpt(run) } : {}),
    ...(setAside ? { setAside } : {}),
  };
}

/** The `--json` object, as documented in the README. */
/** The `--json` document; pass@k and pass^k are this task's for `k` (capped at n), as the human report prints them. */
export function fixJson(result: FixResult, lines: [number, number], k: number): object {
  const stats = taskPassAtK(result.samples, result.passed, k);
  return {
    file: result.relativePath,
    lines,
    testCommand: result.testCommand,
    baseline: result.baseline
      ? { status: result.baseline.status, durationMs: result.baseline.durationMs, perTest: result.perTest, failingTests: result.failingTests, flakyTests: result.flakyTests ?? [] }
      : null,
    baselinePassed: result.baselinePassed,
    samples: result.samples,
    passed: result.passed,
    lost: result.lost.map((l) => l.message),
    k: stats.k,
    passAtK: stats.passAtK,
    passHatK: stats.passHatK,
    candidates: result.candidates.map((c) => ({
      index: c.index,
      number: c.index + 1,
      ...(c.round !== undefined ? { round: c.round } : {}),
      status: c.verdict.status,
      ...(c.verdict.reason ? { reason: c.verdict.reason } : {}),
      durationMs: c.verdict.durationMs,
      duplicateOf: c.duplicateOf,
      runs: c.runs.map((r) => r.status),
      runDetails: c.runs.map((r, i) => runDetail(r, c.setAside?.find((s) => s.run === i)?.why)),
      verified: c.verified,
      flaky: c.flaky,
      replacement: c.replacement,
      diff: c.diff,
      ...(c.stage ? { stage: c.stage } : {}),
      ...(c.confirmedOn ? { confirmedOn: c.confirmedOn } : {}),
      ...(c.reachingTests ? { reachingTests: { ...c.reachingTests, note: verifiedOn(c.reachingTests) } } : {}),
      ...(c.tests ? { tests: { fixed: c.tests.fixed, broke: c.tests.broke, passed: c.tests.passed, failed: c.tests.failed } } : {}),
      ...(c.verdict.status !== 'pass' ? { failure: failureExcerpt(c.verdict) } : {}),
      ...(c.strength ? { strength: strengthJson(c.strength) } : {}),
      ...(c.reviewRequired ? { reviewRequired: c.reviewRequired } : {}),
    })),
    verified: result.verified,
    ...(result.behaviour ? { behaviour: result.behaviour } : {}),
    ...(result.stoppedEarly ? { stoppedEarly: result.stoppedEarly.message } : {}),
    ...(result.strengthCutShort ? { strengthCutShort: result.strengthCutShort } : {}),
    ...(result.strengthCost ? { strengthCost: { ...result.strengthCost, share: result.durationMs > 0 ? Number((result.strengthCost.durationMs / result.durationMs).toFixed(3)) : 0 } } : {}),
    ...(result.passedFailingTestsOnly ? { passedFailingTestsOnly: result.passedFailingTestsOnly.map((c) => ({ ...c, number: c.index + 1, note: FULL_RUN_NOT_REACHED })) } : {}),
    durationMs: result.durationMs,
  };
}

/**
 * "Nothing passed" for people: the conclusion first, then each group of identical failures once, then the same next
 * steps the editor gives (core/verification/noFixAdvice.ts), with the CLI's flags.
 */
export function noFixLines(result: FixResult): string[] {
  const advice = noFixAdvice(result, CLI_NAMES);
  if (!advice) return [];
  const head = result.samples === 0 ? 'No candidate was produced, so nothing was tested.' : `No passing fix found (0 of ${result.samples} passed): ${advice.conclusion}.`;
  const out = [head];
  for (const group of advice.groups.filter((g) => g.numbers.length > 0)) {
    const who = group.numbers.length === 1 ? `#${group.numbers[0]}` : `#${group.numbers.join(', #')}`;
    out.push(`  ${who}:`, ...group.excerpt.slice(0, 5).map((l) => `      ${l}`));
  }
  const duplicates = result.candidates.filter((c) => c.duplicateOf !== null).map((c) => `#${c.index + 1} (same as #${c.duplicateOf! + 1})`);
  if (duplicates.length > 0) out.push(`  not run again, the same as an earlier candidate: ${duplicates.join(', ')}`);
  if (advice.next.length > 0) out.push('', `Next: ${advice.next.join('; ')}.`);
  return out;
}

function humanReport(result: FixResult, k: number): string {
  const out: string[] = [];
  if (result.baselinePassed) out.push('WARNING: the tests already pass on the unmodified code, so they do not catch the bug: a passing candidate proves little.', '');
  if (result.stoppedEarly) out.push(`Stopped early (${result.stoppedEarly.message}); reporting what finished.`, '');
  // The likeliest fixes when the clock ran out: shown, though not verified, so the user knows where to look.
  for (const c of result.passedFailingTestsOnly ?? []) out.push(`candidate #${c.index + 1}${c.label ? ` — ${c.label}` : ''}: ${FULL_RUN_NOT_REACHED} (not verified)`, c.diff, '');
  // Named so a failure they caused is not read as the candidate's; every candidate still ran the whole suite.
  if (result.flakyTests?.length) out.push(`Flaky tests (passed on the baseline, failed on a re-run of the unmodified code): ${result.flakyTests.join(', ')}. Candidates that failed only on these were re-run on the whole suite.`, '');
  if (result.verified.length > 0) {
    out.push(`${result.verified.length} verified fix${result.verified.length === 1 ? '' : 'es'} (best first):`, '');
    if (result.verified.length > 1) out.push(`${undecidedLine(result.verified.length, result.behaviour)}.`, '');
    if (result.behaviour) out.push(...describeBehaviour(result.behaviour), '');
    for (const index of result.verified) {
      const c = result.candidates[result.candidates.findIndex((x) => x.index === index)];
      out.push(`candidate ${candidateLine(c)}${c.label ? ` — ${c.label}` : ''}`);
      if (c.reviewRequired) out.push(`  REVIEW REQUIRED (not ranked by strength): ${c.reviewRequired}`);
      if (c.strength) out.push(`  ${describeStrength(c.strength)}`);
      else if (result.strengthCutShort?.unchecked.includes(index)) out.push(`  strength: cut short (${result.strengthCutShort.message})`);
      out.push(c.diff);
      // The first surviving variants, so a reviewer sees what else the tests would accept.
      for (const survivor of c.strength?.survivors.slice(0, MAX_SURVIVORS_SHOWN) ?? []) out.push(`  also passes: ${survivor.label}`, survivor.diff);
    }
    // What the check cost, so its share of the request is never hidden.
    if (result.strengthCost) out.push('', describeStrengthCost(result.strengthCost, result.durationMs));
  } else {
    out.push(...noFixLines(result));
  }
  const stat = (name: string, values: Readonly<Record<string, number>>) =>
    Object.entries(values).map(([k, v]) => `${name.replace('k', k)} ${(100 * v).toFixed(1)}%`).join(', ');
  // Lost samples are not in n, so the count says so next to it; a statistic with no values is left out, not printed empty.
  const lost = result.lost.length > 0 ? `, ${result.lost.length} lost (not counted in n)` : '';
  const stats = taskPassAtK(result.samples, result.passed, k);
  const summary = [`${result.passed} of ${result.samples} samples passed${lost}`, stat('pass@k', stats.passAtK), stat('pass^k', stats.passHatK)];
  if (result.samples > 0 || result.lost.length > 0) out.push('', summary.filter(Boolean).join('; '));
  if (result.lost.length > 0) out.push(`${result.lost.length} sample(s) could not be obtained: ${[...new Set(result.lost.map((l) => l.message))].join('; ')}`);
  return out.join('\n');
}

/** The unmodified code's tests ran out of time: a setting to change (exit 2), not a finding about the candidates. */
function baselineTimeout(result: FixResult): string | undefined {
  if (result.stoppedEarly?.kind !== 'baselineTimeout') return undefined;
  const advice = noFixAdvice(result, CLI_NAMES);
  return advice ? `${advice.conclusion}; ${advice.next.join('; ')}.` : result.stoppedEarly.message;
}

/** Where the request looks: the lines given, or (neither --file nor --lines) the failing tests' functions. */
type Target = { readonly file: string; readonly lines: [number, number]; readonly text: string } | undefined;

async function targetOf(values: OptionsReading['values'], workspace: string): Promise<Target> {
  if (values.file === undefined && values.lines === undefined) return undefined;
  if (values.file === undefined || values.lines === undefined) {
    throw new UserError(`--file and --lines go together: give both, or neither to start from the failing tests\n${fixUsage}`);
  }
  if (values.testNames.length > 0) throw new UserError('--test-name picks the failing tests to start from when there is no --file/--lines; with them the lines say where to look');
  const lines = parseLines(values.lines);
  const text = await readUserText(resolve(workspace, values.file), values.file, `file not found: ${values.file} (in ${workspace})`);
  return { file: values.file, lines, text };
}

/** One request's report, whichever kind ran. */
interface Outcome {
  readonly result: FixResult;
  readonly file: string;
  readonly lines: [number, number];
  readonly selected: string;
  readonly json: object;
  readonly human: string;
  /** A workspace-level request's whole outcome (every function tried). */
  readonly workspace?: WorkspaceFixResult;
}

type EngineRequest = Omit<FixRequest, 'relativePath' | 'start' | 'end'>;

async function runLines(target: NonNullable<Target>, request: EngineRequest, k: number, onEvent: (event: FixEvent) => void): Promise<Outcome> {
  const { start, end } = lineRangeToOffsets(target.text, target.lines[0], target.lines[1]);
  const result = await runFix({ ...request, relativePath: target.file, start, end, unsavedText: target.text }, onEvent);
  return { result, file: target.file, lines: target.lines, selected: target.text.slice(start, end), json: fixJson(result, target.lines, k), human: humanReport(result, k) };
}

/** A workspace-level request that found no function to try: it ends with exit 1 and this message on stderr. */
class NothingTried extends Error {}

async function runWorkspace(request: EngineRequest, testNames: readonly string[], k: number, onEvent: (event: FixEvent) => void, err: (text: string) => void): Promise<Outcome> {
  const onLocalised = (localisation: LocalisedWorkspace) => {
    for (const line of localisedLines(localisation)) err(`verified-fix: ${line}`);
  };
  const out = await runWorkspaceFix({ ...request, ...(testNames.length > 0 ? { testNames } : {}) }, onEvent, onLocalised);
  if (!out.result || !out.lines) {
    const why = out.localisation.ranked.length === 0 ? `the failing tests point at no function of the workspace's source files (${out.localisation.evidence})` : 'no function could be tried before the total timeout';
    // No candidate was verified (exit 1), as when every candidate failed: nothing to suggest, not bad input.
    throw new NothingTried(`${why}; name the code with --file and --lines`);
  }
  const { result, lines } = out;
  const human = [...localisationLines(out), '', humanReport(result, k)].join('\n');
  return { result, file: result.relativePath, lines: [lines[0], lines[1]], selected: result.originalText.slice(result.start, result.end), json: { ...fixJson(result, [lines[0], lines[1]], k), localisation: localisationJson(out) }, human, workspace: out };
}

export async function runFixCommand(argv: string[], out: (text: string) => void, err: (text: string) => void): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(fixHelp());
    return 0;
  }
  let reading = readFlags(argv);
  stopOnProblems(reading);
  const target = await targetOf(reading.values, resolve(reading.values.workspace));
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
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const onEvent = (event: FixEvent) => {
    const line = describeEvent(event);
    // Progress lines go to stderr as they come; the set-up line names the tool, as its other notices do.
    if (line) err(event.type === 'started' ? `verified-fix: ${line.text}` : line.text);
    if (event.type === 'started' && protectsLess(event.protections)) err(`verified-fix: warning: this system protects less than bubblewrap would (see above); ${weakerSandboxAdvice()}`);
  };
  const startedAt = Date.now();
  try {
    const request: EngineRequest = {
      workspace,
      ...requestOptions(values, availableParallelism()),
      provider,
      ...(fallbackProvider ? { fallbackProvider } : {}),
      signal: controller.signal,
      logger,
    };
    const outcome = await (target ? runLines(target, request, values.k, onEvent) : runWorkspace(request, values.testNames, values.k, onEvent, err)).catch((error: unknown) => {
      if (!(error instanceof NothingTried)) throw error;
      err(`verified-fix: ${error.message}`);
      return undefined;
    });
    if (!outcome) return 1;
    const { result } = outcome;
    // Every sample lost: nothing was tested, so "no fix" would mislead; the one sentence goes to stderr.
    const failure = providerFailure(result, values) ?? baselineTimeout(result);
    if (values.json) out(JSON.stringify(outcome.json));
    // Candidates' text and output reach a terminal here: no escape sequence or carriage return of theirs acts on it.
    else if (!failure) out(showControls(outcome.human));
    // Resolved against the caller's folder, not the workspace: it is the bot's file, not the project's. Written after
    // the report, so a results file that cannot be written still leaves the fix on stdout.
    // A cancelled request, or one whose baseline timed out, says nothing about the candidates: the panel keeps no task
    // for either, and neither does the file.
    const counts = result.stoppedEarly?.kind !== 'cancelled' && result.stoppedEarly?.kind !== 'baselineTimeout';
    if (values.results !== undefined && values.results !== '' && counts) {
      // A workspace-level request's task is the function where the fix was found (or the last one tried).
      const taskId = requestTaskId(outcome.file, outcome.lines, outcome.selected, startedAt, String(process.pid));
      const task = outcome.workspace ? workspaceTaskRecords(outcome.workspace, taskId) : { taskId, samples: sampleRecords(result), baselinePassed: result.baselinePassed };
      const note = await appendResults(resolve(values.results), formatResults([task]));
      if (note) err(`verified-fix: warning: ${note}`);
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
