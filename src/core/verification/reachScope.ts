// Which tests a candidate's later runs need: only those that ran the selected function on the unmodified code, when
// the baseline's coverage says so and the candidate's edit stays inside that function's body.
import type { PerTestPlan } from './stagedVerification';
import type { ReporterRun } from '../testResults/reporterCommand';
import { selectionCommand } from '../testResults/selection';
import { steeringReason } from './strengthSteering';
import { diffAgainstBaseline } from '../testResults/compare';
import type { Logger } from '../base/logger';

/**
 * What the baseline's coverage said about the request's selection: the tests whose process ran the selected
 * function (`ids`, every test of those processes; `byLoads`: every test of the files that load the target, when one
 * process ran them all), out of `total`; or, in one sentence, why every survivor runs the whole command.
 */
export type Reach =
  | { readonly ids: readonly string[]; readonly total: number; readonly functionStart: number; readonly functionEnd: number; readonly byLoads?: true }
  | { readonly problem: string };

/** A candidate's full runs narrowed to the reaching tests: the command, the plan they are judged by, and the counts. */
export interface ReachScope {
  readonly command: ReporterRun;
  readonly plan: PerTestPlan;
  readonly ran: number;
  readonly cannotReach: number;
}

/** The scope of one candidate's full runs, or why they run the whole command. */
export function reachScope(reach: Reach | undefined, plan: PerTestPlan, edit: { languageId: string; originalText: string; start: number; end: number; replacement: string }): { scope: ReachScope } | { problem: string } {
  if (!reach) return { problem: 'no coverage of the unmodified code was collected' };
  if ('problem' in reach) return { problem: reach.problem };
  if (edit.start < reach.functionStart || edit.end > reach.functionEnd) return { problem: 'the selection is not inside one function\'s body' };
  const steering = steeringReason(edit);
  if (steering) return { problem: steering.replace(/^it /, 'the candidate ') };
  const wanted = new Set([...reach.ids, ...plan.failing]);
  const baseline = plan.baseline.filter((test) => wanted.has(test.id));
  const ids = [...new Set(baseline.map((test) => test.id))];
  const command = selectionCommand(plan.adapter, plan.base, ids);
  if (!command) return { problem: `the ${plan.adapter.name} command cannot select tests` };
  const sub: PerTestPlan = { ...plan, baseline, baselineRan: diffAgainstBaseline(baseline, baseline).ranCount };
  return { scope: { command, plan: sub, ran: sub.baselineRan, cannotReach: Math.max(0, plan.baselineRan - sub.baselineRan) } };
}

/** What `candidateScope` needs of the request: where the selection is, and whether every survivor runs everything. */
export interface ScopeOptions {
  readonly languageId: string;
  readonly originalText?: string;
  readonly selectionStart?: number;
  /** Every survivor runs the whole command (`--full-suite`), whatever the reach. */
  readonly fullSuite?: boolean;
  readonly logger?: Logger;
}

/**
 * The reaching tests the full runs of `who` ("candidate #2", or a variant of a fix) are narrowed to, or undefined
 * (logged) when it runs the whole command: no reach, `--full-suite`, or an edit that is not inside the selected
 * function's body.
 */
export function candidateScope(reference: { readonly reach?: Reach; readonly plan?: PerTestPlan }, options: ScopeOptions, who: string, selection: string, replacement: string): ReachScope | undefined {
  const { reach, plan } = reference;
  const { fullSuite, selectionStart, originalText, languageId, logger } = options;
  if (!plan || !reach || 'problem' in reach || fullSuite || selectionStart === undefined || originalText === undefined) return undefined;
  const scoped = reachScope(reach, plan, { languageId, originalText, start: selectionStart, end: selectionStart + selection.length, replacement });
  if ('problem' in scoped) logger?.info(`${who} runs the full command, not only the reaching tests: ${scoped.problem}`);
  return 'scope' in scoped ? scoped.scope : undefined;
}
