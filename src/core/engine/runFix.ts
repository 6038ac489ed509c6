// Orchestrates one request as named phases: open, plan the tests, prepare the executor, baseline and generation at
// once (each candidate verified in its own copy, verdicts streamed), the strength and behaviour checks, and the result.
import { startBaseline } from './baseline';
import type { ReusedBaseline } from './baseline';
import { CandidatePool } from './candidatePool';
import { Generation } from './generation';
import { Lifetime, openRequest } from './openRequest';
import type { OpenedRequest } from './openRequest';
import type { FixEvent, FixRequest, FixResult, UnfinishedCandidate, Verdict } from '../contract/fixRequest';
import type { LostSample } from '../contract/provider';
import type { TestExecutor } from '../execution/executor';
import { prepareExecution, prepareExecutor } from '../execution/prepareExecution';
import { RunQueue } from '../execution/runQueue';
import { planTests } from '../testCommand/testPlan';
import type { TestPlan } from '../testCommand/testPlan';
import type { PerTestPlan } from '../verification/stagedVerification';
import { rankByStrength, staticReviewReason } from '../verification/strengthCheck';
import { runStrengthPhase } from './strengthPhase';
import type { Slot } from '../execution/runQueue';
import { Verifier } from '../verification/verifier';
import type { StrengthCost, TestStrength } from '../contract/strength';
import type { BehaviourReport } from '../contract/behaviour';
import { checkBehaviour } from '../behaviour/behaviourCheck';
import { applyReplacement } from '../base/textRange';
import { reporterCommand } from '../testResults/reporterCommand';
import { fullRunForTopFix } from './topFixFullRun';
import { SuiteCensus } from '../verification/suiteCensus';
import { recheckAgainstCensus } from './censusRecheck';

/**
 * Runs the request to the end (or to cancel / total timeout) and returns every finished candidate. `reuse` is a
 * baseline an earlier phase ran on the same unmodified code (a workspace request's tries): it is not run again.
 */
export async function runFix(request: FixRequest, onEvent: (event: FixEvent) => void = () => undefined, reuse?: ReusedBaseline): Promise<FixResult> {
  const started = performance.now();
  const opened = await openRequest(request);
  const { prepared } = opened;
  // The provider may start on its candidates now, off this thread: the sandbox probe and the listing that come next
  // mostly wait on short processes, and the baseline starts after them.
  const early = request.provider.prepare?.({
    languageId: prepared.languageId, relativePath: prepared.relativePath, fileText: prepared.text, start: prepared.start, end: prepared.end, samples: request.samples,
  });
  try {
    return await runOpened(request, opened, started, onEvent, reuse);
  } finally {
    early?.release();
  }
}

/** The request once opened: its tests planned and run, its candidates generated and verified. */
async function runOpened(request: FixRequest, opened: OpenedRequest, started: number, onEvent: (event: FixEvent) => void, reuse?: ReusedBaseline): Promise<FixResult> {
  const { prepared, logger } = opened;
  const { backend, listing } = await prepareExecution(request, logger);
  const plan = planTests({
    workspace: request.workspace, testCommand: prepared.testCommand, env: opened.env, usesHostTools: backend.usesHostTools,
    baselineCheck: request.baselineCheck, staged: request.stagedVerification ?? true, slots: Math.max(1, request.parallel),
  });
  const lifetime = new Lifetime(request);
  // Before the timer and listeners: a failure here must leave nothing running.
  const executor = await prepareExecutor({
    request, relativePath: prepared.relativePath, testCommand: plan.runCommand, backend, listing, env: plan.env, redactor: opened.redactor, signal: lifetime.signal, logger,
  });
  lifetime.start();
  const queue = new RunQueue(Math.max(1, request.parallel));
  const census = censusOf(request, plan);
  const requiredRuns = announce(request, opened, plan, executor, onEvent, census !== undefined);
  const fullSuite = request.fullSuiteForEveryFix === true;
  const baseline = startBaseline({ run: request.baselineCheck, executor, plan, prepared, slot: queue.slot, logger, onEvent, fullSuite, ...(reuse ? { reuse } : {}) });
  // Tests that cannot finish on the unmodified code cannot finish on a candidate either: spending n runs says nothing.
  void baseline.verdict.then((verdict) => {
    if (verdict?.status === 'timeout' && !verdict.cancelled) lifetime.stop('baselineTimeout', `the tests on the unmodified code timed out after ${(verdict.durationMs / 1000).toFixed(1)} s`);
  }, () => undefined);
  // Staged candidates need the failing tests before they start; others run alongside the baseline.
  const readyToVerify: Promise<unknown> = plan.fullCommand && plan.staged ? baseline.reference : Promise.resolve();
  const verifier = new Verifier({
    executor, reference: baseline.reference, fullCommand: plan.fullCommand, staged: plan.staged, requiredRuns, languageId: prepared.languageId, signal: lifetime.signal, slot: queue.slot,
    testTimeoutMs: request.testTimeoutMs, originalText: prepared.text, selectionStart: prepared.start, fullSuite, logger, sharing: { relativePath: prepared.relativePath, parallel: Math.max(1, request.parallel) }, idleSlot: queue.idle, ...(census ? { census } : {}), ...(plan.wide ? { wide: plan.wide } : {}),
  });
  const pool = new CandidatePool({ relativePath: prepared.relativePath, originalText: prepared.text, start: prepared.start, end: prepared.end, requiredRuns });
  const generation = new Generation({ request, prepared, baseline, pool, verifier, readyToVerify, signal: lifetime.signal, logger, onEvent });

  let providerError: unknown;
  try {
    await generation.run();
  } catch (error) {
    providerError = error;
    lifetime.stop('providerError', `the provider failed: ${(error as Error).message}`);
  }
  const facts: Facts = {
    request, opened, plan, pool, verifier, lost: generation.lost, unfinished: generation.unfinished, lifetime, started, baseline: null, strengths: new Map(), reviewRequired: new Map(),
  };
  try {
    [facts.baseline] = await Promise.all([baseline.verdict, generation.settled()]);
    facts.perTest = (await baseline.reference).plan;
    if (census) recheckAgainstCensus(pool, census, logger, onEvent);
    if (!providerError) await fullRunForTopFix({ pool, verifier, originalText: prepared.text, start: prepared.start, end: prepared.end, signal: lifetime.signal, logger, onEvent });
    if (!providerError) await afterVerdicts(facts, executor, queue.slot, onEvent);
  } finally {
    lifetime.close();
    queue.clearQueue();
    await executor.dispose();
  }
  if (providerError) throw providerError;
  const result = resultOf(facts);
  onEvent({ type: 'done', result });
  return result;
}

/** Without the baseline, the request's own runs count the tests, where the runner's report can be read. */
function censusOf(request: FixRequest, plan: TestPlan): SuiteCensus | undefined {
  return !request.baselineCheck && plan.fullCommand && plan.runner && 'adapter' in plan.runner ? new SuiteCensus(plan.runner.adapter) : undefined;
}

/** Said at the start of a request without the baseline check, as for a command that prints no summary. */
export const NO_BASELINE =
  'the baseline check is off (--no-baseline / verifiedFix.baselineCheck): nothing says how many tests the unmodified code runs, so a pass is judged by its exit code and its own summary alone (a run whose summary shows no test still fails); a candidate that exits 0 before most tests would pass';
/** The same, where the runner's per-test report is read: the request's own runs are the count. */
export const NO_BASELINE_COUNTED =
  'the baseline check is off (--no-baseline / verifiedFix.baselineCheck): nothing says how many tests the unmodified code runs, so a pass is judged by its own per-test report: no test, a test file without a test of its own, or fewer tests in a file than another run of this request ran fail it; a candidate that skips tests when it is the only one run would pass';

/** Tells the front end and the log how the request will run; returns the runs a pass needs. */
function announce(request: FixRequest, { prepared, logger, dropped, notAllowed }: OpenedRequest, plan: TestPlan, executor: TestExecutor, onEvent: (event: FixEvent) => void, counted: boolean): number {
  const { testCommand } = plan;
  onEvent({ type: 'started', testCommand, protections: executor.protections });
  for (const message of prepared.warnings) {
    logger.warn(message);
    onEvent({ type: 'warning', message });
  }
  logger.info(`test command: ${testCommand}; isolation: ${executor.isolation}`);
  for (const line of plan.log) logger.info(line);
  if (!request.baselineCheck) {
    // The same fact the census is made from: a warning naming checks that do not run would mislead.
    const message = counted ? NO_BASELINE_COUNTED : NO_BASELINE;
    logger.warn(message);
    onEvent({ type: 'warning', message });
  }
  if (dropped.length > 0) {
    logger.info(`test runs do not get these variables (pass one with the verifiedFix.sandbox.passEnv setting or --pass-env): ${dropped.join(', ')}`);
  }
  if (notAllowed.length > 0) logger.info(`test runs get only toolchain variables; not passed (--pass-env or verifiedFix.sandbox.passEnv passes one): ${notAllowed.join(', ')}`);
  // Where runs can reach each other's copies, a pass counts only once it repeats with no other run active.
  const requiredRuns = Math.max(request.confirmRuns, executor.runsCanInterfere ? 2 : 1);
  if (requiredRuns > request.confirmRuns) logger.info('this sandbox cannot keep runs apart: a passing candidate is run once more with no other run active before it is verified');
  return requiredRuns;
}

/** What the result is made of, gathered as the phases finish. */
interface Facts {
  readonly request: FixRequest;
  readonly opened: OpenedRequest;
  readonly plan: TestPlan;
  readonly pool: CandidatePool;
  /** Knows the tests it found flaky on the unmodified code while judging candidates. */
  readonly verifier: Verifier;
  readonly lost: readonly LostSample[];
  readonly unfinished: readonly UnfinishedCandidate[];
  readonly lifetime: Lifetime;
  readonly started: number;
  baseline: Verdict | null;
  perTest?: PerTestPlan;
  readonly strengths: Map<number, TestStrength>;
  /** Verified candidates that could steer the strength check, and why (strengthSteering, the control run). */
  readonly reviewRequired: Map<number, string>;
  strengthCutShort?: FixResult['strengthCutShort'];
  strengthCost?: StrengthCost;
  behaviour?: BehaviourReport;
}

/**
 * Once every verdict is in, the list can be shown; then the strength and behaviour checks run side by side. A stop
 * from here on ends only the checks: every verdict is in, so the request did not stop early.
 */
async function afterVerdicts(facts: Facts, executor: TestExecutor, slot: Slot, onEvent: (event: FixEvent) => void): Promise<void> {
  const { request, pool, lifetime, opened } = facts;
  const due = (request.strengthCheck ?? 'quick') !== 'off' || (request.behaviourCheck ?? 'off') !== 'off';
  if (!due || !pool.anyVerified || lifetime.signal.aborted) return;
  onEvent({ type: 'verdicts', result: resultOf(facts) });
  const before = lifetime.stoppedEarly;
  const behaviour = checkBehaviourIfDue(facts, executor, slot, onEvent);
  // Fixes past the first wait for the behaviour check's groups: a fix of an earlier one's group shares its variants.
  const groups = (request.behaviourCheck ?? 'off') === 'off' ? undefined : behaviour.then(() => (facts.behaviour?.status === 'compared' ? facts.behaviour.groups : undefined), () => undefined);
  await Promise.all([checkStrengthIfDue(facts, executor, slot, groups, onEvent), behaviour]);
  if (lifetime.stoppedEarly !== before) {
    opened.logger.info(`the checks after the verdicts were stopped (${lifetime.stoppedEarly?.message}); the verified fixes they did not finish have no strength, and a behaviour check cut short reports nothing`);
    const unchecked = (request.strengthCheck ?? 'quick') === 'off' ? [] : pool.ranking().filter((index) => !facts.strengths.has(index));
    if (unchecked.length > 0) facts.strengthCutShort = { message: lifetime.stoppedEarly?.message ?? 'stopped', unchecked, kind: 'stopped' };
    lifetime.restore(before);
  }
}

/** Where the verified fixes disagree: their function replayed on the tests' inputs and inputs near them. */
async function checkBehaviourIfDue(facts: Facts, executor: TestExecutor, slot: <T>(run: () => Promise<T>) => Promise<T>, onEvent: (event: FixEvent) => void): Promise<void> {
  const { request, opened, plan, pool, perTest, lifetime } = facts;
  const level = request.behaviourCheck ?? 'off';
  if (level === 'off') return;
  const { languageId, relativePath, text: originalText, start, end } = opened.prepared;
  const fixes = pool.ranking().flatMap((index) => {
    const candidate = pool.candidates.find((c) => c.index === index);
    return candidate ? [{ index, fileText: applyReplacement(originalText, start, end, candidate.replacement) }] : [];
  });
  const failingTests = perTest && perTest.failing.length > 0 ? reporterCommand(perTest.adapter, perTest.base, perTest.failing) : undefined;
  const report = await checkBehaviour({
    level, executor, slot, workspace: request.workspace, languageId, relativePath, originalText, start, end, fixes, testCommand: plan.runCommand, testTimeoutMs: request.testTimeoutMs,
    ...(failingTests ? { failingTests } : {}), signal: lifetime.signal, logger: opened.logger,
  });
  if (!report) return;
  facts.behaviour = report;
  onEvent({ type: 'behaviour', report });
}

/** How firmly the tests pin each verified fix, unless the check is off (strengthPhase: its budget and cost). */
async function checkStrengthIfDue(facts: Facts, executor: TestExecutor, slot: Slot, groups: Promise<readonly (readonly number[])[] | undefined> | undefined, onEvent: (event: FixEvent) => void): Promise<void> {
  const { request, opened, pool, verifier, strengths, reviewRequired, started } = facts;
  if ((request.strengthCheck ?? 'quick') === 'off') return;
  const outcome = await runStrengthPhase({
    request, prepared: opened.prepared, logger: opened.logger, candidates: pool.candidates, ranking: pool.ranking(), verifier, executor, slot, requestStarted: started,
    ...(groups ? { groups } : {}), onEvent, strengths, reviewRequired,
  });
  facts.strengthCost = outcome.cost;
  if (outcome.cutShort) facts.strengthCutShort = outcome.cutShort;
}

/** Why each verified candidate needs review: the strength check's findings, else the static ones (strength off). */
function reviewReasons({ opened, pool, reviewRequired }: Facts): Map<number, string> {
  const { languageId, text: originalText, start, end } = opened.prepared;
  const reasons = new Map(reviewRequired);
  for (const c of pool.candidates) {
    if (!c.verified || reasons.has(c.index)) continue;
    const reason = staticReviewReason({ languageId, originalText, start, end }, c);
    if (reason) reasons.set(c.index, reason);
  }
  return reasons;
}

function resultOf(facts: Facts): FixResult {
  const { opened, plan, pool, verifier, lost, unfinished, lifetime, started, baseline, perTest, strengths, strengthCutShort, strengthCost, behaviour } = facts;
  const { relativePath, text: originalText, start, end } = opened.prepared;
  const stoppedEarly = lifetime.stoppedEarly;
  const review = reviewReasons(facts);
  const sizes = new Map(pool.candidates.map((c) => [c.index, c]));
  return {
    relativePath,
    testCommand: plan.testCommand,
    baseline,
    baselinePassed: baseline?.status === 'pass',
    perTest: perTest !== undefined,
    failingTests: perTest?.failing ?? [],
    ...(verifier.flakyTestsFound().length > 0 ? { flakyTests: verifier.flakyTestsFound() } : {}),
    candidates: pool.candidates.map((c) => ({
      ...c,
      ...(strengths.has(c.index) ? { strength: strengths.get(c.index) } : {}),
      ...(review.has(c.index) ? { reviewRequired: review.get(c.index) } : {}),
    })),
    verified: rankByStrength(pool.ranking(), strengths, sizes, new Set(review.keys())),
    ...pool.statistics(),
    lost,
    ...(stoppedEarly ? { stoppedEarly } : {}),
    ...(strengthCutShort ? { strengthCutShort } : {}),
    ...(strengthCost ? { strengthCost } : {}),
    ...(unfinished.length > 0 ? { passedFailingTestsOnly: [...unfinished].sort((a, b) => a.index - b.index) } : {}),
    durationMs: Math.round(performance.now() - started),
    originalText,
    start,
    end,
    ...(behaviour ? { behaviour } : {}),
  };
}
