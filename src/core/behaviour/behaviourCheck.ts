// The behaviour check: after the verdicts, record the selected function's inputs in a run of the unmodified code's
// tests, generate inputs near them, replay the unmodified function and every verified fix on all of them (each in a
// run of its own, in the request's sandbox), and say where they disagree.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BehaviourReport } from '../contract/behaviour';
import { shellQuote } from '../testResults/shell';
import { fixBehaviours, groupFixes } from './compare';
import { HARNESS_FILE, HARNESS_SOURCE, INPUTS_FILE, RESULTS_FILE } from './harness';
import { recordingText, replayText } from './instrument';
import { locateFunction } from './locate';
import type { LocatedFunction } from './locate';
import { generateInputs, inputKey } from './neighbours';
import type { ReplayInput } from './neighbours';
import { readResults } from './outcomes';
import type { Outcome } from './outcomes';
import { readRecording } from './recording';
import { serialize } from 'node:v8';
import { BUDGETS, EMPTY_REPORT, NOT_RECORDED, REPLAY_START_MS, checkLimits, notesReason, readReplayResults, runRecording, settleRecordings } from './budgets';
import type { BehaviourCheck } from './budgets';
import { checkPythonBehaviour } from './pythonCheck';

export type { BehaviourLevel } from './budgets';
export type { BehaviourCheck } from './budgets';



/** One version replayed in a run of its own: its outcomes, why there are none, or undefined when cancelled. */
async function replay(check: BehaviourCheck, fn: LocatedFunction, label: string, fileText: string, inputs: readonly ReplayInput[]) {
  const { perCallMs, callBudgetMs } = BUDGETS[check.level];
  const loader = fn.typescript ? '--import tsx ' : '';
  const command = (_report: string, out?: string) =>
    `node ${loader}${shellQuote(join(out ?? '', HARNESS_FILE))} ${shellQuote(out ?? '')} ${shellQuote(check.relativePath)} ${perCallMs} ${callBudgetMs}`;
  // Each input on its own: one shared serialisation would let a call that mutates its argument change the next input.
  const packed = serialize(inputs.map((input) => serialize(input))).toString('base64');
  const executed = await check.slot(() =>
    check.executor.run(replayText(fileText, fn), label, { command, outputFiles: { [HARNESS_FILE]: HARNESS_SOURCE, [INPUTS_FILE]: packed, [RESULTS_FILE]: '' }, ...checkLimits(check, callBudgetMs + REPLAY_START_MS) }),
  );
  if (executed.verdict.cancelled) return undefined;
  return readReplayResults(executed, RESULTS_FILE, (content) => readResults(content, inputs.length));
}

/** The observed inputs, those of the failing tests first, and what the recordings lack; undefined when cancelled. */
async function observedInputs(check: BehaviourCheck, fn: LocatedFunction) {
  const { observed: max } = BUDGETS[check.level];
  const text = recordingText(check.originalText, fn);
  const [failingRun, allRun] = await Promise.all([check.failingTests ? runRecording(check, text, 'bf', check.failingTests) : Promise.resolve(NOT_RECORDED), runRecording(check, text, 'ba', undefined)]);
  if (!failingRun || !allRun) return undefined;
  const settled = settleRecordings(check, failingRun, allRun);
  const [failing, all] = [readRecording(settled.failing, max), readRecording(settled.all, max)];
  check.logger.info(`behaviour check: ${fn.display} recorded with ${failing.inputs.length} distinct inputs in the failing tests, ${all.inputs.length} in the whole suite`);
  const failingKeys = new Set(failing.inputs.map(inputKey));
  const inputs = [...failing.inputs, ...all.inputs.filter((input) => !failingKeys.has(inputKey(input)))].slice(0, max);
  return { inputs, failingKeys, uncloneable: failing.uncloneable + all.uncloneable, reason: failing.reason ?? all.reason, notes: settled.notes };
}

/** Runs the check; undefined when a cancel cut it short (no report is better than half of one). */
export async function checkBehaviour(check: BehaviourCheck): Promise<BehaviourReport | undefined> {
  if (check.languageId === 'python') return checkPythonBehaviour(check);
  const located = await locateFunction(check.languageId, check.originalText, check.start, check.end);
  if ('problem' in located) return { status: 'notReplayable', reason: located.problem, ...EMPTY_REPORT };
  const fn = located.located;
  if (fn.typescript && !existsSync(join(check.workspace, 'node_modules', 'tsx'))) {
    return { function: fn.display, status: 'notReplayable', reason: 'a TypeScript function is replayed with tsx, and the workspace has no node_modules/tsx', ...EMPTY_REPORT };
  }
  const observed = await observedInputs(check, fn);
  if (!observed || check.signal.aborted) return undefined;
  if (observed.inputs.length === 0) {
    if (observed.uncloneable > 0) return { function: fn.display, status: 'notReplayable', reason: `its arguments cannot be copied (${observed.reason ?? 'not cloneable'})`, ...EMPTY_REPORT };
    if (observed.notes.length > 0) return { function: fn.display, status: 'failed', reason: observed.notes.join('; '), ...EMPTY_REPORT };
    return { function: fn.display, status: 'noInputs', reason: `the tests never called ${fn.display}`, ...EMPTY_REPORT };
  }
  const { inputs: budget } = BUDGETS[check.level];
  const generated = generateInputs(observed.inputs, Math.max(0, budget - observed.inputs.length));
  const inputs = [...observed.inputs, ...generated];
  const fromFailingTests = inputs.map((input, i) => i < observed.inputs.length && observed.failingKeys.has(inputKey(input)));
  const versions = [{ label: 'b0', fileText: check.originalText }, ...check.fixes.map((f) => ({ label: `b${f.index + 1}`, fileText: f.fileText }))];
  const replays = await Promise.all(versions.map((v) => replay(check, fn, v.label, v.fileText, inputs)));
  if (check.signal.aborted || replays.some((r) => r === undefined)) return undefined;
  const [original, ...fixes] = replays as Array<{ outcomes: Outcome[] } | { problem: string }>;
  const counts = { observed: observed.inputs.length, generated: generated.length, failingTestInputs: observed.failingKeys.size };
  if ('problem' in original) return { function: fn.display, status: 'failed', reason: `the unmodified function could not be replayed: ${original.problem}`, ...EMPTY_REPORT, ...counts };
  const replayed = {
    name: fn.display,
    inputs,
    fromFailingTests,
    original: original.outcomes,
    fixes: check.fixes.map((f, i) => ({ index: f.index, ...fixes[i] })),
  };
  const { groups, pairs } = groupFixes(replayed);
  return { function: fn.display, status: 'compared', ...notesReason(observed.notes), ...counts, fixes: fixBehaviours(replayed), groups, pairs };
}
