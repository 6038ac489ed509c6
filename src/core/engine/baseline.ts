// The baseline phase: the unmodified code's run, which gives the failing tests (the reference) and the report providers see.
import { defer } from '../base/defer';
import type { Deferred } from '../base/defer';
import type { FixEvent, Verdict } from '../contract/fixRequest';
import type { Logger } from '../base/logger';
import type { BaselineReport, SiteRanking } from '../contract/provider';
import type { TestExecutor } from '../execution/executor';
import { RunPriority } from '../execution/runQueue';
import type { Slot } from '../execution/runQueue';
import { localiseFaults } from '../localisation/localise';
import type { PreparedRequest } from '../request/checkRequest';
import type { TestPlan } from '../testCommand/testPlan';
import { referenceFrom } from '../verification/reference';
import type { Reference } from '../verification/reference';
import { describeReach, reachOfBaseline, whyNoBaselineCoverage, withCoverage, worthSelecting } from './baselineCoverage';

/** Tail of the baseline output given to providers: enough for a stack trace, small enough for a prompt. */
const BASELINE_REPORT_CHARS = 4000;

export interface BaselineOptions {
  readonly run: boolean;
  readonly executor: TestExecutor;
  readonly plan: TestPlan;
  readonly prepared: PreparedRequest;
  /** Takes the request's parallel slots for one run. */
  readonly slot: Slot;
  readonly logger: Logger;
  readonly onEvent: (event: FixEvent) => void;
  /** A baseline already run on this unmodified code (a workspace request's localisation): no run, no coverage rerun. */
  readonly reuse?: ReusedBaseline;
  /** Every survivor runs the full suite: no coverage is collected for the reaching tests. */
  readonly fullSuite?: boolean;
}

/** What an earlier phase learnt from the unmodified code: its run, and the lines its coverage ranked in the selection. */
export interface ReusedBaseline {
  readonly verdict: Verdict;
  readonly reference: Reference;
  readonly ranking?: SiteRanking;
}

/** The baseline as it becomes known; each promise settles once, whether or not the baseline runs. */
export interface Baseline {
  /** The verdict, once in (null when the baseline check is off). */
  readonly verdict: Promise<Verdict | null>;
  readonly reference: Promise<Reference>;
  readonly report: Promise<BaselineReport | undefined>;
  /** Settles once the baseline's process has started, or its run ended without one (at once when none runs). */
  readonly started: Promise<void>;
  /** Fault localisation, at most once per request and only for a provider that asks (it reruns the failing tests). */
  readonly localise: () => Promise<SiteRanking | undefined>;
}

/** Starts the baseline run (in a slot of the request's runs) and returns what will come of it. */
export function startBaseline({ run, executor, plan, prepared, slot, logger, onEvent, reuse, fullSuite }: BaselineOptions): Baseline {
  const reference = defer<Reference>();
  const report = defer<BaselineReport | undefined>();
  if (reuse) return reusedBaseline(reuse, onEvent, reference, report);
  const started = defer<void>();
  // Coverage once: in the baseline run itself, where the runner gives a process per test file and survivors are staged.
  const noCoverage = plan.fullCommand && plan.staged ? whyNoBaselineCoverage(plan.runner, prepared.languageId, fullSuite === true) : 'survivors are not staged';
  // Staged candidates wait for the baseline, so it has every slot to itself; unstaged ones run beside it.
  const wide = plan.staged ? plan.wide : undefined;
  const full = wide?.command ?? plan.fullCommand;
  const options = { ...(full && !noCoverage ? withCoverage(full, plan.runner) : full), seedsRunnerCache: true, onStarted: () => started.resolve() };
  const verdict = run
    ? slot(() => executor.run(prepared.text, 'baseline', options), RunPriority.first, wide?.width).then(async (executed) => {
        started.resolve();
        const { verdict } = executed;
        onEvent({ type: 'baseline', verdict });
        if (verdict.status === 'pass') logger.warn('the tests pass on the unmodified code: they do not catch the bug, so a passing candidate proves little');
        const judged = verdict.cancelled ? {} : referenceFrom(executed, plan.runner, plan.testCommand, logger, wide?.width);
        const reach = noCoverage || verdict.cancelled ? { problem: noCoverage ?? 'cancelled' } : worthSelecting(await reachOfBaseline(executed, judged.plan, prepared, logger));
        if (!verdict.cancelled && plan.fullCommand && plan.staged) logger.info(describeReach(reach));
        reference.resolve({ ...judged, reach });
        report.resolve({ status: verdict.status, output: verdict.output.slice(-BASELINE_REPORT_CHARS) });
        return verdict;
      })
    : Promise.resolve().then(() => {
        started.resolve();
        reference.resolve({});
        report.resolve(undefined);
        return null;
      });
  let localised: Promise<SiteRanking | undefined> | undefined;
  const { relativePath, text, start, end } = prepared;
  const localise = () =>
    (localised ??= Promise.all([reference.promise, report.promise]).then(([{ plan: perTest }, baseline]) =>
      baseline && baseline.status !== 'pass'
        ? localiseFaults({ executor, plan: perTest, baselineOutput: baseline.output, relativePath, fileText: text, start, end, slot, logger })
        : undefined,
    ));
  return { verdict, reference: reference.promise, report: report.promise, localise, started: started.promise };
}

/** The baseline of an earlier phase, announced as if it had just run; localisation answers with that phase's lines. */
function reusedBaseline(
  reuse: ReusedBaseline,
  onEvent: (event: FixEvent) => void,
  reference: Deferred<Reference>,
  report: Deferred<BaselineReport | undefined>,
): Baseline {
  const verdict = Promise.resolve().then(() => {
    onEvent({ type: 'baseline', verdict: reuse.verdict });
    reference.resolve(reuse.reference);
    report.resolve({ status: reuse.verdict.status, output: reuse.verdict.output.slice(-BASELINE_REPORT_CHARS) });
    return reuse.verdict;
  });
  const ranking = Promise.resolve(reuse.ranking);
  return { verdict, reference: reference.promise, report: report.promise, localise: () => ranking, started: Promise.resolve() };
}
