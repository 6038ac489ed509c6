// One wording of the engine's events for a log, shared by the CLI (stderr) and the extension (its output channel), so
// the two front ends cannot drift apart on what a baseline, a candidate or a lost sample looks like.
import type { CandidateResult, FixEvent } from '../contract/fixRequest';
import { describeProtections } from '../contract/protections';
import { describeRuns, provenByTests, verifiedOn } from '../verification/evidence';
import { describeStrength } from '../verification/strengthCheck';
import { describeBehaviour } from '../behaviour/describe';

/** A log line and how loud it is; `warn` lines go to stderr / the log's warning level. */
export interface EventLine {
  readonly level: 'info' | 'warn';
  readonly text: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * "#3 pass (2/2 runs passed), 1.4 s — fixes 1 failing test · 12 others still pass". People count from 1, as both front
 * ends do; `index` in `--json` stays the 0-based position in `candidates`.
 */
export function candidateLine(c: CandidateResult): string {
  const runs = c.runs.length > 1 ? ` (${describeRuns(c)})` : '';
  const reach = c.verified && c.reachingTests ? ` — ${verifiedOn(c.reachingTests)}` : '';
  const proven = c.verified && c.tests ? `${reach || ' —'}${reach ? ';' : ''} ${provenByTests(c.tests.fixed.length, c.tests.passed)}` : reach;
  const dup = c.duplicateOf !== null ? ` (same as #${c.duplicateOf + 1})` : '';
  const reason = c.verdict.reason ? `: ${c.verdict.reason}` : '';
  // Round 1 goes unsaid: only a repair round's candidates are told apart.
  const round = c.round !== undefined && c.round > 1 ? ` (round ${c.round})` : '';
  return `#${c.index + 1}${round} ${c.verdict.status}${reason}${runs}${dup}, ${seconds(c.verdict.durationMs)}${proven}`;
}

/**
 * The log line of one event, or undefined for events that are state rather than news (progress counts, the final
 * result) and for warnings, which the engine has already written to the request's logger.
 */
export function describeEvent(event: FixEvent): EventLine | undefined {
  const info = (text: string): EventLine => ({ level: 'info', text });
  switch (event.type) {
    case 'started':
      return info(`testing with "${event.testCommand}" (${describeProtections(event.protections)})`);
    case 'baseline': {
      const { status, reason, durationMs } = event.verdict;
      return info(`baseline (unmodified code): ${status}${reason ? `: ${reason}` : ''}, ${seconds(durationMs)}`);
    }
    case 'lost':
      return { level: 'warn', text: `sample lost: ${event.reason}` };
    case 'verdict':
      return info(`candidate ${candidateLine(event.candidate)}`);
    case 'fallback':
      return info(`no candidate was verified; asking ${event.provider}`);
    case 'repairRound':
      return info(`round ${event.round}: asking ${event.provider} for different fixes after ${event.failed} failed candidate${event.failed === 1 ? '' : 's'}`);
    case 'verdicts':
      return info('every verdict is in; checking how firmly the tests pin the verified fixes and where they disagree');
    case 'strength':
      return info(`candidate #${event.index + 1}: ${describeStrength(event.strength)}`);
    case 'behaviour':
      return info(describeBehaviour(event.report).join('\n'));
    case 'warning':
    case 'progress':
    case 'done':
      return undefined;
    default: {
      const unknown: never = event;
      return info(`engine: ${JSON.stringify(unknown)}`);
    }
  }
}
