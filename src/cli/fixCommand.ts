// `verified-fix fix …`: runs the engine headless for CI bots and prints diffs, verdicts and statistics.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { runFix } from '../core/engine/runFix';
import { showControls } from '../core/base/ansi';
import { UserError } from '../core/base/errors';
import type { FixEvent, FixRequest, FixResult } from '../core/contract/fixRequest';
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
import { describeEvent } from '../core/engine/describeEvent';
import { CLI_NAMES, noFixAdvice } from '../core/verification/noFixAdvice';
import { fixHelp, fixUsage, readFlags } from './flags';
import { providerFailure } from './providerFailure';
import { fixJson, humanReport } from './fixReport';
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
