// Orchestrates one request as named phases: open, plan the tests, prepare the executor, baseline and generation at
// once (each candidate verified in its own copy, verdicts streamed), the strength and behaviour checks, and the result.
import pLimit from 'p-limit';
import { startBaseline } from './baseline';
import { CandidatePool } from './candidatePool';
import { Generation } from './generation';
import { Lifetime, openRequest } from './openRequest';
import type { OpenedRequest } from './openRequest';
import type { FixEvent, FixRequest, FixResult, Verdict } from '../contract/fixRequest';
import type { LostSample } from '../contract/provider';
import type { TestExecutor } from '../execution/executor';
import { prepareExecution, prepareExecutor } from '../execution/prepareExecution';
import { planTests } from '../testCommand/testPlan';
import type { TestPlan } from '../testCommand/testPlan';
import type { PerTestPlan } from '../verification/stagedVerification';
import { checkStrength, rankByStrength } from '../verification/strengthCheck';
import { Verifier } from '../verification/verifier';
import type { TestStrength } from '../contract/strength';
import type { BehaviourReport } from '../contract/behaviour';
import { checkBehaviour } from '../behaviour/behaviourCheck';
import { applyReplacement } from '../base/textRange';
import { reporterCommand } from '../testResults/reporterCommand';

/** Runs the request to the end (or to cancel / total timeout) and returns every finished candidate. */
export async function runFix(request: FixRequest, onEvent: (event: FixEvent) => void = () => undefined): Promise<FixResult> {
  const started = performance.now();
  const opened = await openRequest(request);
  const { prepared, logger } = opened;
  const { backend, listing } = await prepareExecution(request, logger);
  const plan = planTests({
    workspace: request.workspace, testCommand: prepared.testCommand, env: opened.env, usesHostTools: backend.usesHostTools,
    baselineCheck: request.baselineCheck, staged: request.stagedVerification ?? true,
  });
  const lifetime = new Lifetime(request);
  // Before the timer and listeners: a failure here must leave nothing running.
  const executor = await prepareExecutor({
    request, relativePath: prepared.relativePath, testCommand: plan.runCommand, backend, listing, env: plan.env, redactor: opened.redactor, signal: lifetime.signal, logger,
  });
  lifetime.start();
  const limit = pLimit(Math.max(1, request.parallel));
  const requiredRuns = announce(request, opened, plan, executor, onEvent);
  const baseline = startBaseline({ run: request.baselineCheck, executor, plan, prepared, slot: limit, logger, onEvent });
  // Tests that cannot finish on the unmodified code cannot finish on a candidate either: spending n runs says nothing.
  void baseline.verdict.then((verdict) => {
    if (verdict?.status === 'timeout' && !verdict.cancelled) lifetime.stop('baselineTimeout', `the tests on the unmodified code timed out after ${(verdict.durationMs / 1000).toFixed(1)} s`);
  }, () => undefined);
  // Staged candidates need the failing tests before they start; others run alongside the baseline.
  const readyToVerify: Promise<unknown> = plan.fullCommand && plan.staged ? baseline.reference : Promise.resolve();
  const verifier = new Verifier({
    executor, reference: baseline.reference, fullCommand: plan.fullCommand, staged: plan.staged, requiredRuns, languageId: prepared.languageId, signal: lifetime.signal, slot: limit,
    testTimeoutMs: request.testTimeoutMs, originalText: prepared.text,
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
  const facts: Facts = { request, opened, plan, pool, verifier, lost: generation.lost, lifetime, started, baseline: null, strengths: new Map() };
  try {
    [facts.baseline] = await Promise.all([baseline.verdict, generation.settled()]);
    facts.perTest = (await baseline.reference).plan;
    if (!providerError) await afterVerdicts(facts, executor, limit, onEvent);
  } finally {
    lifetime.close();
    limit.clearQueue();
    await executor.dispose();
  }
  if (providerError) throw providerError;
  const result = resultOf(facts);
  onEvent({ type: 'done', result });
  return result;
}

/** Tells the front end and the log how the request will run; returns the runs a pass needs. */
function announce(request: FixRequest, { prepared, logger, dropped, notAllowed }: OpenedRequest, plan: TestPlan, executor: TestExecutor, onEvent: (event: FixEvent) => void): number {
  const { testCommand } = plan;
  onEvent({ type: 'started', testCommand, protections: executor.protections });
  for (const message of prepared.warnings) {
    logger.warn(message);
    onEvent({ type: 'warning', message });
  }
  logger.info(`test command: ${testCommand}; isolation: ${executor.isolation}`);
  for (const line of plan.log) logger.info(line);
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
  readonly lifetime: Lifetime;
  readonly started: number;
  baseline: Verdict | null;
  perTest?: PerTestPlan;
  readonly strengths: Map<number, TestStrength>;
  behaviour?: BehaviourReport;
}

/**
 * Once every verdict is in, the list can be shown; then the strength and behaviour checks run side by side. A stop
 * from here on ends only the checks: every verdict is in, so the request did not stop early.
 */
async function afterVerdicts(facts: Facts, executor: TestExecutor, slot: <T>(run: () => Promise<T>) => Promise<T>, onEvent: (event: FixEvent) => void): Promise<void> {
  const { request, pool, lifetime, opened } = facts;
  const due = (request.strengthCheck ?? 'quick') !== 'off' || (request.behaviourCheck ?? 'off') !== 'off';
  if (!due || !pool.anyVerified || lifetime.signal.aborted) return;
  onEvent({ type: 'verdicts', result: resultOf(facts) });
  const before = lifetime.stoppedEarly;
  await Promise.all([checkStrengthIfDue(facts, onEvent), checkBehaviourIfDue(facts, executor, slot, onEvent)]);
  if (lifetime.stoppedEarly !== before) {
    opened.logger.info(`the checks after the verdicts were stopped (${lifetime.stoppedEarly?.message}); the verified fixes they did not finish have no strength, and a behaviour check cut short reports nothing`);
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
    level, executor, slot, workspace: request.workspace, languageId, relativePath, originalText, start, end, fixes, testCommand: plan.runCommand,
    ...(failingTests ? { failingTests } : {}), signal: lifetime.signal, logger: opened.logger,
  });
  if (!report) return;
  facts.behaviour = report;
  onEvent({ type: 'behaviour', report });
}

/** How firmly the tests pin each verified fix, unless the check is off. */
async function checkStrengthIfDue(facts: Facts, onEvent: (event: FixEvent) => void): Promise<void> {
  const { request, opened, pool, verifier, strengths } = facts;
  const level = request.strengthCheck ?? 'quick';
  if (level === 'off') return;
  const { languageId, relativePath, text: originalText, start, end } = opened.prepared;
  await checkStrength({ level, verifier, languageId, relativePath, originalText, start, end, candidates: pool.candidates, ranking: pool.ranking() }, (index, strength) => {
    strengths.set(index, strength);
    onEvent({ type: 'strength', index, strength });
  });
}

function resultOf({ opened, plan, pool, verifier, lost, lifetime, started, baseline, perTest, strengths, behaviour }: Facts): FixResult {
  const { relativePath, text: originalText, start, end } = opened.prepared;
  const stoppedEarly = lifetime.stoppedEarly;
  return {
    relativePath,
    testCommand: plan.testCommand,
    baseline,
    baselinePassed: baseline?.status === 'pass',
    perTest: perTest !== undefined,
    failingTests: perTest?.failing ?? [],
    ...(verifier.flakyTestsFound().length > 0 ? { flakyTests: verifier.flakyTestsFound() } : {}),
    candidates: pool.candidates.map((c) => (strengths.has(c.index) ? { ...c, strength: strengths.get(c.index) } : c)),
    verified: rankByStrength(pool.ranking(), strengths),
    ...pool.statistics(),
    lost,
    ...(stoppedEarly ? { stoppedEarly } : {}),
    durationMs: Math.round(performance.now() - started),
    originalText,
    start,
    end,
    ...(behaviour ? { behaviour } : {}),
  };
}
