// The behaviour check for a Python function: record its calls' parameters (pickled) in runs of the unmodified code's
// tests, then replay the unmodified function and every verified fix, each in a run of its own in the request's
// sandbox, with the Python harness; compared as the JavaScript check compares.
import { join } from 'node:path';
import type { BehaviourReport } from '../contract/behaviour';
import { shellQuote } from '../testResults/shell';
import { BUDGETS, EMPTY_REPORT, NOT_RECORDED, REPLAY_START_MS, checkLimits, notesReason, readReplayResults, runRecording, settleRecordings } from './budgets';
import type { BehaviourCheck } from './budgets';
import { fixBehaviours, groupFixes } from './compare';
import type { Outcome } from './outcomes';
import { PYTHON_ALL_FILE, PYTHON_FAILING_FILE, PYTHON_HARNESS_FILE, PYTHON_HARNESS_SOURCE, PYTHON_RESULTS_FILE } from './pythonHarness';
import { locatePython } from './pythonLocate';
import type { PythonFunction } from './pythonLocate';
import { pythonRecordingText } from './pythonRecord';
import { readPythonResults } from './pythonResults';
import type { PythonReplay } from './pythonResults';

/**
 * The interpreter the tests run with, so the replay imports what they import: `.venv/bin/python -m pytest` and
 * `python3.12 -m unittest` name it; `.venv/bin/pytest` lives beside it; anything else gets `python3`.
 */
export function pythonOf(testCommand: string): string {
  const words = testCommand.replace(/^(\s*(export\s+)?[A-Za-z_][A-Za-z0-9_]*=\S*\s*;?\s*)+/, '').trim().split(/\s+/);
  const first = words[0] ?? '';
  if (/(^|\/)python[0-9.]*$/.test(first)) return first;
  const runner = /^(.*\/)(pytest|py\.test)$/.exec(first);
  if (runner) return `${runner[1]}python`;
  return 'python3';
}

/** One version replayed by the harness in a run of its own; undefined when cancelled. */
async function replay(check: BehaviourCheck, fn: PythonFunction, label: string, fileText: string, recorded: { failing: string; all: string }) {
  const { perCallMs, callBudgetMs, observed, inputs } = BUDGETS[check.level];
  const python = pythonOf(check.testCommand);
  const command = (_report: string, out?: string) =>
    [python, shellQuote(join(out ?? '', PYTHON_HARNESS_FILE)), shellQuote(out ?? ''), shellQuote(check.relativePath), shellQuote(fn.qualname), fn.kind, perCallMs, callBudgetMs, observed, inputs].join(' ');
  const outputFiles = { [PYTHON_HARNESS_FILE]: PYTHON_HARNESS_SOURCE, [PYTHON_FAILING_FILE]: recorded.failing, [PYTHON_ALL_FILE]: recorded.all, [PYTHON_RESULTS_FILE]: '' };
  const executed = await check.slot(() => check.executor.run(fileText, label, { command, outputFiles, ...checkLimits(check, callBudgetMs + REPLAY_START_MS) }));
  if (executed.verdict.cancelled) return undefined;
  return readReplayResults(executed, PYTHON_RESULTS_FILE, (content) => readPythonResults(content?.toString('utf8')));
}

/** Whether a fix's run replayed the very inputs the unmodified function's run did: each run makes them itself. */
function sameInputs(a: PythonReplay, b: PythonReplay): boolean {
  return a.calls.length === b.calls.length && a.calls.every((call, i) => call === b.calls[i]) && a.fromFailing.every((f, i) => f === b.fromFailing[i]);
}

/** Runs the Python check; undefined when a cancel cut it short. */
export async function checkPythonBehaviour(check: BehaviourCheck): Promise<BehaviourReport | undefined> {
  const located = await locatePython(check.originalText, check.start, check.end);
  if ('problem' in located) return { status: 'notReplayable', reason: located.problem, ...EMPTY_REPORT };
  const fn = located.located;
  const name = fn.qualname;
  const text = pythonRecordingText(check.originalText, fn);
  const [failing, all] = await Promise.all([check.failingTests ? runRecording(check, text, 'bf', check.failingTests) : Promise.resolve(NOT_RECORDED), runRecording(check, text, 'ba', undefined)]);
  if (!failing || !all || check.signal.aborted) return undefined;
  const { notes, ...frames } = settleRecordings(check, failing, all);
  const recorded = { failing: frames.failing.toString('base64'), all: frames.all.toString('base64') };
  if (!recorded.failing && !recorded.all) {
    return { function: name, status: notes.length > 0 ? 'failed' : 'noInputs', reason: notes.length > 0 ? notes.join('; ') : `the tests never called ${name}`, ...EMPTY_REPORT };
  }
  const versions = [{ label: 'b0', fileText: check.originalText }, ...check.fixes.map((f) => ({ label: `b${f.index + 1}`, fileText: f.fileText }))];
  const replays = await Promise.all(versions.map((v) => replay(check, fn, v.label, v.fileText, recorded)));
  if (check.signal.aborted || replays.some((r) => r === undefined)) return undefined;
  const [original, ...fixes] = replays as Array<Exclude<(typeof replays)[number], undefined>>;
  if ('status' in original) return { function: name, status: original.status, reason: [original.reason, ...notes].join('; '), ...EMPTY_REPORT };
  if ('problem' in original) return { function: name, status: 'failed', reason: `the unmodified function could not be replayed: ${original.problem}`, ...EMPTY_REPORT };
  check.logger.info(`behaviour check: ${name} recorded with ${original.failingInputs} distinct inputs in the failing tests, ${original.observed} in all`);
  const outcomesOf = (r: (typeof fixes)[number]): { outcomes: Outcome[] } | { problem: string } => {
    if ('problem' in r) return r;
    if ('status' in r) return { problem: `its replay said ${r.status}: ${r.reason}` };
    return sameInputs(original, r) ? { outcomes: r.outcomes } : { problem: 'its replay did not run the inputs the unmodified function ran' };
  };
  const replayed = {
    name,
    inputs: original.calls.map(() => ({ args: [] })),
    calls: original.calls,
    fromFailingTests: original.fromFailing,
    original: original.outcomes,
    fixes: check.fixes.map((f, i) => ({ index: f.index, ...outcomesOf(fixes[i]) })),
  };
  const { groups, pairs } = groupFixes(replayed);
  const counts = { observed: original.observed, generated: original.generated, failingTestInputs: original.failingInputs };
  return { function: name, status: 'compared', ...notesReason(notes), ...counts, fixes: fixBehaviours(replayed), groups, pairs };
}
