// Turns a finished request into the task the session keeps: first-run outcomes, verified candidates, usage.
import { createHash } from 'node:crypto';
import type { CandidateResult, FixResult } from '../../core/contract/fixRequest';
import { requestTaskId, sampleRecords } from '../../core/statistics/resultsFile';
import type { LocalisedFrom } from './localisedTask';
import type { StoredCandidate, StoredTask } from './sessionSchema';
import type { BehaviourReport } from '../../core/contract/behaviour';
import { behaviourNote, behaviourSummary } from '../../core/behaviour/describe';
import { openVariants, strengthKnown, uncheckedBecause } from '../../core/verification/strengthCheck';

/** SHA-256 of a document's text: how a reopened task knows its file is unchanged. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A verified candidate as the QuickPick and the session keep it. */
export function storedCandidate(c: CandidateResult, report?: BehaviourReport, cutShort?: FixResult['strengthCutShort'], verified = 0): StoredCandidate {
  const note = behaviourNote(report, c.index);
  const summary = verified > 1 ? behaviourSummary(verified, report) : undefined;
  const group = report?.groups.findIndex((g) => g.includes(c.index)) ?? -1;
  const unchecked = uncheckedBecause(cutShort, c.index);
  return {
    index: c.index,
    replacement: c.replacement,
    ...(c.label ? { label: c.label } : {}),
    ...(c.round !== undefined && c.round > 1 ? { round: c.round } : {}),
    runsPassed: c.runs.filter((r) => r.status === 'pass').length,
    runs: c.runs.length,
    durationMs: c.verdict.durationMs,
    changeSize: c.changeSize,
    ...(c.tests ? { testsFixed: c.tests.fixed.length, testsPassed: c.tests.passed } : {}),
    ...(c.reachingTests ? { reachingTests: { ran: c.reachingTests.ran, cannotReach: c.reachingTests.cannotReach } } : {}),
    ...(c.strength ? { strength: { variants: c.strength.variants, caught: c.strength.caught, weak: c.strength.weak, open: openVariants(c.strength), known: strengthKnown(c.strength), survivors: c.strength.survivors.map(({ label, replacement }) => ({ label, replacement })), ...(c.strength.sharedFrom ? { sharedWith: c.strength.sharedFrom.index + 1 } : {}) } } : {}),
    ...(!c.strength && unchecked ? { strengthCutShort: unchecked } : {}),
    ...(note && report && group >= 0 ? { behaviour: { group: group + 1, groups: report.groups.length, note, ...(summary ? { summary } : {}) } } : {}),
  };
}

/** The verified candidates of `result`, best first. */
export function verifiedCandidates(result: FixResult): StoredCandidate[] {
  return result.verified.flatMap((i) => result.candidates.filter((c) => c.index === i).map((c) => storedCandidate(c, result.behaviour, result.strengthCutShort, result.verified.length)));
}

/** Sum of one usage field over the samples, or undefined when no sample reported it. */
function total(result: FixResult, pick: (c: CandidateResult) => number | undefined): number | undefined {
  const values = result.candidates.map(pick).filter((v): v is number => v !== undefined);
  return values.length > 0 ? values.reduce((sum, v) => sum + v, 0) : undefined;
}

/** Completions longer than this are left out of the saved session (and its Export) to keep the workspace state small. */
const STORED_COMPLETION_CHARS = 2000;

/** The session's record of one request on `uri` (lines are 1-based and inclusive); `localisedFrom` when localisation chose them. */
export function taskRecord(result: FixResult, uri: string, lines: { startLine: number; endLine: number }, startedAt: number, localisedFrom?: LocalisedFrom): StoredTask {
  const promptTokens = total(result, (c) => c.usage?.promptTokens);
  const completionTokens = total(result, (c) => c.usage?.completionTokens);
  return {
    // The same rule as the CLI's --results: one task per request, named by its code and start (resultsFile.ts).
    id: requestTaskId(result.relativePath, [lines.startLine, lines.endLine], result.originalText.slice(result.start, result.end), startedAt),
    uri,
    file: result.relativePath,
    startLine: lines.startLine,
    endLine: lines.endLine,
    start: result.start,
    end: result.end,
    originalHash: textHash(result.originalText),
    startedAt,
    durationMs: result.durationMs,
    outcomes: result.candidates.map((c) => c.verdict.status),
    samples: sampleRecords(result).map(({ completion, ...rest }) =>
      (completion !== undefined && completion.length <= STORED_COMPLETION_CHARS ? { completion, ...rest } : rest)),
    verified: verifiedCandidates(result),
    baselinePassed: result.baselinePassed,
    lost: result.lost.length,
    ...(result.stoppedEarly ? { stoppedEarly: result.stoppedEarly } : {}),
    ...(promptTokens !== undefined ? { promptTokens } : {}),
    ...(completionTokens !== undefined ? { completionTokens } : {}),
    ...(localisedFrom ? { localisedFrom } : {}),
  };
}
