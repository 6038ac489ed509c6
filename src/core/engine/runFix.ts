// Orchestrates one request: baseline and generation at once, each candidate verified in its own copy, verdicts streamed.
import pLimit from 'p-limit';
import { CandidatePool } from './candidatePool';
import type { Sample } from './candidatePool';
import { UserError } from '../base/errors';
import type { CandidateResult, FixEvent, FixRequest, FixResult, StoppedEarly, Verdict } from '../contract/fixRequest';
import { localiseFaults } from '../localisation/localise';
import { LocalExecutor } from '../execution/localExecutor';
import { silentLogger } from '../base/logger';
import type { Logger } from '../base/logger';
import type { BaselineReport, CandidateProvider, RepairContext, SiteRanking } from '../contract/provider';
import { commandToRun } from '../testCommand/packageScript';
import { askInRounds } from './repairRounds';
import { prepareRequest } from '../request/checkRequest';
import { Redactor, scrubEnvironment } from '../security/secrets';
import { reporterCommand } from '../verification/stagedVerification';
import type { PerTestPlan } from '../verification/stagedVerification';
import { checkStrength, rankByStrength } from '../verification/strengthCheck';
import type { TestExecutor } from '../execution/executor';
import { resolveRunner } from '../testCommand/runner';
import { applyReplacement } from '../base/textRange';
import { referenceFrom, Verifier } from '../verification/verifier';
import type { Reference } from '../verification/verifier';
import type { TestStrength } from '../contract/strength';

/** Tail of the baseline output given to providers: enough for a stack trace, small enough for a prompt. */
const BASELINE_REPORT_CHARS = 4000;

/** A logger that never writes a secret value, whatever the engine or a provider hands it. */
function redactingLogger(logger: Logger, redactor: Redactor): Logger {
  return {
    trace: (message) => logger.trace(redactor.redact(message)),
    info: (message) => logger.info(redactor.redact(message)),
    warn: (message) => logger.warn(redactor.redact(message)),
    error: (message) => {
      if (typeof message === 'string') return logger.error(redactor.redact(message));
      const copy = new Error(redactor.redact(message.message));
      if (message.stack) copy.stack = redactor.redact(message.stack);
      logger.error(copy);
    },
  };
}

/** Runs the request to the end (or to cancel / total timeout) and returns every finished candidate. */
export async function runFix(request: FixRequest, onEvent: (event: FixEvent) => void = () => undefined): Promise<FixResult> {
  const started = performance.now();
  const scrubbed = scrubEnvironment(process.env, request.isolation.passEnv ?? []);
  const redactor = new Redactor(scrubbed.droppedValues);
  const logger = redactingLogger(request.logger ?? silentLogger, redactor);
  const prepared = await prepareRequest(request, logger);
  const { relativePath, text: originalText, start, end, testCommand, backend, listing } = prepared;
  const controller = new AbortController();
  // Before the timer and listeners below: a failure here must leave nothing running.
  // npm's own start-up costs every run a few hundred milliseconds: the script it runs is resolved once, here.
  const toRun = commandToRun(request.workspace, testCommand, backend.kind === 'container', scrubbed.env);
  const executor: TestExecutor = new LocalExecutor({
    request, relativePath, testCommand: toRun.command, backend, listing, env: toRun.env, redactor, signal: controller.signal, logger,
  });
  try {
    await executor.prepare();
  } catch (error) {
    await executor.dispose();
    throw error;
  }

  let stoppedEarly: StoppedEarly | undefined;
  const stop = (kind: StoppedEarly['kind'], message: string) => {
    if (controller.signal.aborted) return;
    stoppedEarly = { kind, message };
    controller.abort();
  };
  const onOuterAbort = () => stop('cancelled', 'cancelled');
  if (request.signal?.aborted) onOuterAbort();
  request.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const totalTimer = setTimeout(() => stop('totalTimeout', `total timeout (${Math.round(request.totalTimeoutMs / 1000)} s)`), request.totalTimeoutMs);

  const limit = pLimit(Math.max(1, request.parallel));
  onEvent({ type: 'started', testCommand, protections: executor.protections });
  for (const message of prepared.warnings) {
    logger.warn(message);
    onEvent({ type: 'warning', message });
  }
  logger.info(`test command: ${testCommand}; isolation: ${executor.isolation}`);
  logger.info(toRun.log);
  if (scrubbed.dropped.length > 0) {
    logger.info(`test runs do not get these variables (pass one with the verifiedFix.sandbox.passEnv setting or --pass-env): ${scrubbed.dropped.join(', ')}`);
  }
  // Where runs can reach each other's copies, a pass counts only once it repeats with no other run active.
  const requiredRuns = Math.max(request.confirmRuns, executor.runsCanInterfere ? 2 : 1);
  if (requiredRuns > request.confirmRuns) logger.info('this sandbox cannot keep runs apart: a passing candidate is run once more with no other run active before it is verified');

  // Per-test results need the baseline's report; without a runner this tool reads, every run is the whole command.
  const runner = request.baselineCheck ? resolveRunner(request.workspace, testCommand) : undefined;
  if (runner && 'unsupported' in runner) logger.info(`per-test results: not available for \`${testCommand}\` (${runner.unsupported}); each candidate runs the whole command`);
  const fullCommand = runner && 'adapter' in runner ? reporterCommand(runner.adapter, runner.base) : undefined;
  const staged = request.stagedVerification ?? true;

  let resolveBaseline: (report: BaselineReport | undefined) => void = () => undefined;
  const baselineReport = new Promise<BaselineReport | undefined>((resolve) => (resolveBaseline = resolve));
  let resolveReference: (reference: Reference) => void = () => undefined;
  const reference = new Promise<Reference>((resolve) => (resolveReference = resolve));
  let baseline: Verdict | null = null;
  const baselineDone = request.baselineCheck
    ? limit(() => executor.run(originalText, 'baseline', fullCommand ? { command: fullCommand } : {})).then((run) => {
        const { verdict } = run;
        baseline = verdict;
        onEvent({ type: 'baseline', verdict });
        if (verdict.status === 'pass') logger.warn('the tests pass on the unmodified code: they do not catch the bug, so a passing candidate proves little');
        resolveReference(verdict.cancelled ? {} : referenceFrom(run, runner, testCommand, logger));
        resolveBaseline({ status: verdict.status, output: verdict.output.slice(-BASELINE_REPORT_CHARS) });
      })
    : Promise.resolve().then(() => {
        resolveReference({});
        resolveBaseline(undefined);
      });
  // Staged candidates need the failing tests before they start; others run alongside the baseline.
  const readyToVerify: Promise<unknown> = fullCommand && staged ? reference : Promise.resolve();

  // Fault localisation reruns the baseline's tests with coverage: once per request, and only for a provider that asks.
  let localised: Promise<SiteRanking | undefined> | undefined;
  const localise = () =>
    (localised ??= Promise.all([reference, baselineReport]).then(([{ plan }, report]) =>
      report && report.status !== 'pass'
        ? localiseFaults({ executor, plan, baselineOutput: report.output, relativePath, fileText: originalText, start, end, slot: limit, logger })
        : undefined,
    ));

  const verifier = new Verifier({ executor, reference, fullCommand, staged, requiredRuns, languageId: prepared.languageId, signal: controller.signal, slot: limit, testTimeoutMs: request.testTimeoutMs, originalText });
  const pool = new CandidatePool({ relativePath, originalText, start, end, requiredRuns });
  const report = (finished: readonly CandidateResult[]) => finished.forEach((candidate) => onEvent({ type: 'verdict', candidate }));
  const lost: string[] = [];
  const verifications: Array<Promise<void>> = [];
  const verify = async (sample: Sample) => {
    const fileText = applyReplacement(originalText, start, end, sample.replacement);
    const outcome = await verifier.verify(sample.index, originalText.slice(start, end), sample.replacement, fileText);
    if (outcome) report(pool.complete(sample, outcome.runs, outcome.evidence));
  };

  let index = 0;
  /** Feeds up to `budget` of one provider's samples (of `round`) into verification as they arrive; returns their indices. */
  const consume = async (provider: CandidateProvider, budget: number, round?: number, repair?: RepairContext) => {
    const taken: number[] = [];
    const samples = provider.generate({
      languageId: prepared.languageId,
      relativePath,
      fileText: originalText,
      start,
      end,
      samples: budget,
      baseline: baselineReport,
      ...(request.faultLocalisation !== false ? { localise } : {}),
      ...(repair ? { repair } : {}),
      signal: controller.signal,
      logger,
    });
    for await (const sample of samples) {
      if (controller.signal.aborted) break;
      if (sample.kind === 'lost') {
        lost.push(sample.reason);
        onEvent({ type: 'lost', reason: sample.reason });
        continue;
      }
      if (taken.length >= budget) break;
      const i = index++;
      taken.push(i);
      const tags = { ...(round !== undefined ? { round } : {}), ...(sample.usage ? { usage: sample.usage } : {}) };
      if (sample.kind === 'invalid') {
        onEvent({ type: 'invalid', index: i, reason: sample.reason });
        report([pool.addInvalid({ index: i, ...tags }, `unusable answer: ${sample.reason}`)]);
        continue;
      }
      const valid: Sample = { index: i, replacement: sample.text, ...(sample.label ? { label: sample.label } : {}), ...tags };
      const added = pool.add(valid);
      onEvent({ type: 'generated', index: i, replacement: sample.text, duplicateOf: added.duplicateOf });
      report(added.finished);
      if (added.run) verifications.push(readyToVerify.then(() => verify(valid)));
    }
    return taken;
  };
  /** One provider's samples, and its repair rounds while none is verified (engine/repairRounds.ts). */
  const ask = (provider: CandidateProvider) =>
    askInRounds({
      provider, repairRounds: request.repairRounds ?? 0, pool, signal: controller.signal, logger, onEvent,
      ask: (round, repair) => consume(provider, request.samples, round, repair),
      settled: () => Promise.all(verifications),
    });

  const generation = (async () => {
    const fallback = request.fallbackProvider;
    try {
      await ask(request.provider);
    } catch (error) {
      // A first provider that cannot serve this request (no grammar for the language, say) hands it on.
      if (!(fallback && error instanceof UserError) || controller.signal.aborted) throw error;
      logger.warn(`${request.provider.name}: ${error.message}; asking ${fallback.name}`);
      onEvent({ type: 'warning', message: `${request.provider.name}: ${error.message}` });
    }
    if (!fallback || controller.signal.aborted) return;
    // The fallback (a model, typically) costs money or time: ask it only once every first-phase verdict is in.
    await Promise.all(verifications);
    if (controller.signal.aborted || pool.anyVerified) return;
    logger.info(`no ${request.provider.name} candidate was verified; asking ${fallback.name}`);
    onEvent({ type: 'fallback', provider: fallback.name });
    await ask(fallback);
  })();

  let providerError: unknown;
  try {
    await generation;
  } catch (error) {
    providerError = error;
    stop('providerError', `the provider failed: ${(error as Error).message}`);
  }
  let plan: PerTestPlan | undefined;
  const resultOf = (strengths: ReadonlyMap<number, TestStrength>): FixResult => ({
    relativePath,
    testCommand,
    baseline,
    baselinePassed: (baseline as Verdict | null)?.status === 'pass',
    perTest: plan !== undefined,
    failingTests: plan?.failing ?? [],
    ...(verifier.flakyTestsFound().length > 0 ? { flakyTests: verifier.flakyTestsFound() } : {}),
    candidates: pool.candidates.map((c) => (strengths.has(c.index) ? { ...c, strength: strengths.get(c.index) } : c)),
    verified: rankByStrength(pool.ranking(), strengths),
    ...pool.statistics(request.k),
    lost,
    ...(stoppedEarly ? { stoppedEarly } : {}),
    durationMs: Math.round(performance.now() - started),
    originalText,
    start,
    end,
  });
  const strengths = new Map<number, TestStrength>();
  try {
    await Promise.all([baselineDone, ...verifications]);
    ({ plan } = await reference);
    const level = request.strengthCheck ?? 'quick';
    if (!providerError && level !== 'off' && pool.anyVerified && !controller.signal.aborted) {
      onEvent({ type: 'verdicts', result: resultOf(strengths) });
      // A stop from here on ends only the check: every verdict is in, so the request did not stop early.
      const before = stoppedEarly;
      await checkStrength({ level, verifier, languageId: prepared.languageId, relativePath, originalText, start, end, candidates: pool.candidates, ranking: pool.ranking() }, (index, strength) => {
        strengths.set(index, strength);
        onEvent({ type: 'strength', index, strength });
      });
      if (stoppedEarly !== before) {
        logger.info(`the strength check was stopped (${stoppedEarly?.message}); the verified fixes it did not finish have no strength`);
        stoppedEarly = before;
      }
    }
  } finally {
    clearTimeout(totalTimer);
    request.signal?.removeEventListener('abort', onOuterAbort);
    limit.clearQueue();
    await executor.dispose();
  }
  if (providerError) throw providerError;

  const result = resultOf(strengths);
  onEvent({ type: 'done', result });
  return result;
}
