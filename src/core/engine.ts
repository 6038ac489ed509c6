// Orchestrates one request: baseline and generation at once, each candidate verified in its own copy, verdicts streamed.
import pLimit from 'p-limit';
import { changedCharacters, changeSize, unifiedDiff } from './diffing';
import { UserError } from './errors';
import type { CandidateResult, FixEvent, FixRequest, FixResult, TestEvidence, Verdict } from './fixRequest';
import { errorVerdict, LocalExecutor } from './localExecutor';
import type { ExecutedRun } from './localExecutor';
import { silentLogger } from './logger';
import type { Logger } from './logger';
import { passAtK, passHatK } from './passAtK';
import type { BaselineReport, CandidateProvider, SampleUsage } from './providers/provider';
import { prepareRequest } from './requestCheck';
import { Redactor, scrubEnvironment } from './security/secrets';
import { describeTestRunEdits, findTestRunEdits } from './security/testRunEdits';
import { createRequestFolder, removeOrSetAside, tempRootPath } from './tempRoot';
import { judgeRun, listIds, planFromBaseline, reporterCommand } from './stagedVerification';
import type { PerTestPlan } from './stagedVerification';
import { resolveRunner } from './testResults/detect';
import type { RunnerAdapter } from './testResults/types';
import { parseTestSummary, testsRun } from './testSummary';
import type { TestSummary } from './testSummary';
import { applyReplacement } from './textRange';

/**
 * Candidates that differ only in line endings, trailing spaces or surrounding blank lines are the same program.
 * Indentation and inner spaces are kept: they matter in Python and inside string literals.
 */
function normalise(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').replace(/^\n+|\n+$/g, '');
}

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

/**
 * A run that exits 0 passes only if its tests ran: a candidate that exits before them (`process.exit(0)` at import,
 * `os._exit(0)`) or skips them leaves no summary, or one with fewer tests than the unmodified code's run.
 * `reference` is the baseline's summary; without one, only "no test ran at all" can be told.
 */
function judgePass(verdict: Verdict, reference: TestSummary | undefined): Verdict {
  if (verdict.status !== 'pass') return verdict;
  const summary = parseTestSummary(verdict.output);
  const fail = (reason: string): Verdict => ({ ...verdict, status: 'fail', reason });
  if (summary && testsRun(summary) === 0) return fail('no test ran');
  if (!reference) return verdict;
  if (!summary) return fail('the run printed no test summary, though the unmodified code\'s run did: the tests did not run to the end');
  if (testsRun(summary) < testsRun(reference)) return fail(`fewer tests ran than on the unmodified code (${testsRun(summary)} of ${testsRun(reference)})`);
  return verdict;
}

/**
 * The runner's report comes from the same untrusted process as the tests: a candidate that learns its path (from a
 * command line, or `sys.argv` inside pytest) can write "passed" for every test and exit 0. The printed summary is a
 * second witness: it must be there when the baseline printed one, and must not count fewer tests than the report
 * claims ran (fewer, not different: a report lists tests of the same name once).
 */
function crossCheck(verdict: Verdict, tests: TestEvidence, reference: TestSummary | undefined): Verdict {
  const printed = parseTestSummary(verdict.output);
  if (reference && !printed) return { ...verdict, status: 'fail', reason: 'the run printed no test summary, though the unmodified code\'s run did: the tests did not run to the end' };
  const reported = tests.passed + tests.failed;
  if (printed && testsRun(printed) < reported) {
    return { ...verdict, status: 'error', reason: `the test report claims ${reported} tests ran, the printed summary ${testsRun(printed)}: the report was not written by the runner alone` };
  }
  return verdict;
}

/** What candidates are judged against once the baseline has run. */
interface Reference {
  /** The baseline's per-test results, when its runner's report was read. */
  readonly plan?: PerTestPlan;
  /** The baseline's printed test summary, when there was one (the only judge without a plan, a witness with one). */
  readonly summary?: TestSummary;
}

type Evidence = Pick<CandidateResult, 'stage' | 'tests'>;

const emptyEvidence: TestEvidence = { fixed: [], broke: [], stillFailing: [], passed: 0, failed: 0 };

/** The reference from the baseline's run; says once in the log when candidates fall back to the whole command. */
function referenceFrom(run: ExecutedRun, runner: { adapter: RunnerAdapter; base: string } | undefined, testCommand: string, logger: Logger): Reference {
  if (runner) {
    const planned = planFromBaseline(runner.adapter, runner.base, run);
    if ('plan' in planned) {
      logger.info(`per-test results (${runner.adapter.name}): ${planned.plan.failing.length} of ${planned.plan.baselineRan} tests fail on the unmodified code${planned.plan.failing.length ? `: ${listIds(planned.plan.failing)}` : ''}`);
      const summary = parseTestSummary(run.verdict.output);
      return { plan: planned.plan, ...(summary ? { summary } : {}) };
    }
    logger.warn(`per-test results: ${planned.problem}; each candidate runs the whole command`);
  }
  const summary = parseTestSummary(run.verdict.output);
  if (!summary) {
    logger.warn(`the output of "${testCommand}" has no test summary this tool can read: a pass is judged by its exit code alone, so a candidate that exits 0 before the tests run would pass`);
  }
  return summary ? { summary } : {};
}

interface Pending {
  readonly index: number;
  readonly replacement: string;
  readonly label?: string;
  readonly usage?: SampleUsage;
  readonly duplicateOf: number | null;
  readonly invalidReason?: string;
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
  const requestDir = await createRequestFolder();
  const executor = new LocalExecutor({ request, relativePath, testCommand, backend, listing, requestDir, env: scrubbed.env, redactor, signal: controller.signal, logger });
  try {
    await executor.prepare();
  } catch (error) {
    await removeOrSetAside(requestDir, tempRootPath());
    throw error;
  }

  let stoppedEarly: string | undefined;
  const stop = (why: string) => {
    if (controller.signal.aborted) return;
    stoppedEarly = why;
    controller.abort();
  };
  const onOuterAbort = () => stop('cancelled');
  if (request.signal?.aborted) stop('cancelled');
  request.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const totalTimer = setTimeout(() => stop(`total timeout (${Math.round(request.totalTimeoutMs / 1000)} s)`), request.totalTimeoutMs);

  const limit = pLimit(Math.max(1, request.parallel));
  onEvent({ type: 'started', testCommand, protections: backend.protections(request.isolation) });
  for (const message of prepared.warnings) {
    logger.warn(message);
    onEvent({ type: 'warning', message });
  }
  logger.info(`test command: ${testCommand}; ${listing.files.length} files copied per run (${listing.source}), linked: ${listing.linkedFolders.join(', ') || 'none'}`);
  if (scrubbed.dropped.length > 0) {
    logger.info(`test runs do not get these variables (pass one with the verifiedFix.sandbox.passEnv setting or --pass-env): ${scrubbed.dropped.join(', ')}`);
  }
  // Where runs can reach each other's copies, a pass counts only once it repeats with no other run active.
  const requiredRuns = Math.max(request.confirmRuns, executor.runsCanInterfere ? 2 : 1);
  if (requiredRuns > request.confirmRuns) logger.info('this sandbox cannot keep runs apart: a passing candidate is run once more with no other run active before it is verified');

  // Per-test results need the baseline's report; without a runner this tool reads, every run is the whole command.
  const runner = request.baselineCheck ? resolveRunner(request.workspace, testCommand) : undefined;
  const staged = request.stagedVerification ?? true;
  if (runner && 'unsupported' in runner) logger.info(`per-test results: not available for \`${testCommand}\` (${runner.unsupported}); each candidate runs the whole command`);
  const resolved = runner && 'adapter' in runner ? runner : undefined;
  const fullCommand = resolved ? reporterCommand(resolved.adapter, resolved.base) : undefined;

  let resolveBaseline: (report: BaselineReport | undefined) => void = () => undefined;
  const baselineReport = new Promise<BaselineReport | undefined>((resolve) => (resolveBaseline = resolve));
  let baseline: Verdict | null = null;
  /** The summary or the per-test plan every candidate is judged against; settles when the baseline has run. */
  let resolveReference: (reference: Reference) => void = () => undefined;
  const reference = new Promise<Reference>((resolve) => (resolveReference = resolve));
  const baselineDone = request.baselineCheck
    ? limit(() => executor.run(originalText, 'baseline', fullCommand ? { command: fullCommand } : {})).then((run) => {
        const { verdict } = run;
        baseline = verdict;
        onEvent({ type: 'baseline', verdict });
        if (verdict.status === 'pass') logger.warn('the tests pass on the unmodified code: they do not catch the bug, so a passing candidate proves little');
        resolveReference(verdict.reason === 'cancelled' ? {} : referenceFrom(run, resolved, testCommand, logger));
        resolveBaseline({ status: verdict.status, output: verdict.output.slice(-BASELINE_REPORT_CHARS) });
      })
    : Promise.resolve().then(() => {
        resolveReference({});
        resolveBaseline(undefined);
      });
  // Staged candidates need the failing tests before they start; others run alongside the baseline, as before.
  const readyToVerify: Promise<unknown> = resolved && staged ? reference : Promise.resolve();

  const results = new Map<number, CandidateResult>();
  const firstOf = new Map<string, number>();
  const waiting = new Map<number, Pending[]>();
  const lost: string[] = [];
  const verifications: Array<Promise<void>> = [];

  const finish = (pending: Pending, runs: readonly Verdict[], evidence: Evidence = {}) => {
    const after = pending.invalidReason ? originalText : applyReplacement(originalText, start, end, pending.replacement);
    const passes = runs.filter((r) => r.status === 'pass').length;
    const result: CandidateResult = {
      index: pending.index,
      replacement: pending.replacement,
      ...(pending.label ? { label: pending.label } : {}),
      ...(pending.usage ? { usage: pending.usage } : {}),
      verdict: runs[0],
      duplicateOf: pending.duplicateOf,
      runs,
      verified: runs.length >= requiredRuns && passes === runs.length,
      flaky: passes > 0 && passes < runs.length,
      diff: pending.invalidReason ? '' : unifiedDiff(relativePath, originalText, after),
      changeSize: pending.invalidReason ? 0 : changeSize(originalText, after),
      changedCharacters: pending.invalidReason ? 0 : changedCharacters(originalText.slice(start, end), pending.replacement),
      ...evidence,
    };
    results.set(pending.index, result);
    onEvent({ type: 'verdict', candidate: result });
  };

  /** One full run of the command, judged by the per-test plan or, without one, by the test summary. */
  const runFull = async (fileText: string, label: string, alone: boolean): Promise<{ verdict: Verdict; tests?: TestEvidence }> => {
    const run = await executor.run(fileText, label, { alone, ...(fullCommand ? { command: fullCommand } : {}) });
    if (run.verdict.reason === 'cancelled') return run;
    const { plan, summary } = await reference;
    if (!plan) return { verdict: run.verdict.status === 'pass' ? judgePass(run.verdict, summary) : run.verdict };
    const judged = judgeRun(run, plan, 'full');
    return judged.verdict.status === 'pass' ? { ...judged, verdict: crossCheck(judged.verdict, judged.tests, summary) } : judged;
  };

  /** Stage 1: only the tests that failed on the baseline; undefined when there is nothing to select. */
  const runFailingTests = async (fileText: string, label: string): Promise<{ verdict: Verdict; tests: TestEvidence } | undefined> => {
    const { plan } = await reference;
    const command = plan && staged && plan.failing.length > 0 ? reporterCommand(plan.adapter, plan.base, plan.failing) : undefined;
    if (!plan || !command) return undefined;
    const run = await executor.run(fileText, label, { command });
    return run.verdict.reason === 'cancelled' ? { verdict: run.verdict, tests: emptyEvidence } : judgeRun(run, plan, 'failing-tests');
  };

  const verify = async (pending: Pending) => {
    const fileText = applyReplacement(originalText, start, end, pending.replacement);
    const done = (runs: Verdict[], evidence: Evidence) => {
      if (controller.signal.aborted && runs[0].reason === 'cancelled') return; // never ran: not a sample
      finish(pending, runs, evidence);
      for (const dup of waiting.get(pending.index) ?? []) finish(dup, runs, evidence);
      waiting.delete(pending.index);
    };
    // Edits that change how the tests run rather than what the code does are refused before anything runs.
    const edits = findTestRunEdits(prepared.languageId, originalText.slice(start, end), pending.replacement);
    if (edits.length > 0) return done([{ ...errorVerdict(describeTestRunEdits(edits)), status: 'fail' }], {});
    // A candidate that still fails the baseline's failing tests costs one short run and is a failed sample.
    const first = await runFailingTests(fileText, `c${pending.index}f`);
    if (first && first.verdict.status !== 'pass') return done([first.verdict], { stage: 'failing-tests', tests: first.tests });
    const full = await runFull(fileText, `c${pending.index}`, false);
    const runs = [full.verdict];
    let tests = full.tests;
    // Confirmation runs catch flaky passes: a pass is shown only if it repeats (the last one alone where runs can interfere).
    while (runs[0].status === 'pass' && runs.length < requiredRuns && !controller.signal.aborted) {
      const alone = executor.runsCanInterfere && runs.length === requiredRuns - 1;
      const again = await runFull(fileText, `c${pending.index}r${runs.length + 1}`, alone);
      if (controller.signal.aborted && again.verdict.reason === 'cancelled') break;
      runs.push(again.verdict);
      tests = again.tests ?? tests;
    }
    done(runs, { ...(first || tests ? { stage: 'full' as const } : {}), ...(tests ? { tests } : {}) });
  };

  let index = 0;
  /** Feeds up to `budget` of one provider's samples into verification as they arrive. */
  const consume = async (provider: CandidateProvider, budget: number) => {
    let taken = 0;
    const samples = provider.generate({
      languageId: prepared.languageId,
      relativePath,
      fileText: originalText,
      start,
      end,
      samples: budget,
      baseline: baselineReport,
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
      if (taken >= budget) break;
      taken++;
      const i = index++;
      if (sample.kind === 'invalid') {
        onEvent({ type: 'invalid', index: i, reason: sample.reason });
        const reason = `unusable answer: ${sample.reason}`;
        finish({ index: i, replacement: '', duplicateOf: null, invalidReason: reason, ...(sample.usage ? { usage: sample.usage } : {}) }, [{ ...errorVerdict(reason), status: 'fail' }]);
        continue;
      }
      const key = normalise(sample.text);
      const duplicateOf = firstOf.get(key) ?? null;
      const pending: Pending = { index: i, replacement: sample.text, duplicateOf, ...(sample.label ? { label: sample.label } : {}), ...(sample.usage ? { usage: sample.usage } : {}) };
      onEvent({ type: 'generated', index: i, replacement: sample.text, duplicateOf });
      if (duplicateOf === null) {
        firstOf.set(key, i);
        verifications.push(readyToVerify.then(() => limit(() => verify(pending))));
      } else {
        const original = results.get(duplicateOf);
        if (original) finish(pending, original.runs);
        else {
          // Appended in place: copying the list per duplicate made 20,000 identical samples quadratic.
          const queue = waiting.get(duplicateOf);
          if (queue) queue.push(pending);
          else waiting.set(duplicateOf, [pending]);
        }
      }
    }
  };

  const generation = (async () => {
    const fallback = request.fallbackProvider;
    try {
      await consume(request.provider, request.samples);
    } catch (error) {
      // A first provider that cannot serve this request (no grammar for the language, say) hands it on.
      if (!(fallback && error instanceof UserError) || controller.signal.aborted) throw error;
      logger.warn(`${request.provider.name}: ${error.message}; asking ${fallback.name}`);
      onEvent({ type: 'warning', message: `${request.provider.name}: ${error.message}` });
    }
    if (!fallback || controller.signal.aborted) return;
    // The fallback (a model, typically) costs money or time: ask it only once every first-phase verdict is in.
    await Promise.all(verifications);
    if (controller.signal.aborted || [...results.values()].some((c) => c.verified)) return;
    logger.info(`no ${request.provider.name} candidate was verified; asking ${fallback.name}`);
    onEvent({ type: 'fallback', provider: fallback.name });
    await consume(fallback, request.samples);
  })();

  let providerError: unknown;
  try {
    await generation;
  } catch (error) {
    providerError = error;
    stop('provider error');
  }
  try {
    await Promise.all([baselineDone, ...verifications]);
  } finally {
    clearTimeout(totalTimer);
    request.signal?.removeEventListener('abort', onOuterAbort);
    limit.clearQueue();
    await executor.dispose();
  }
  if (providerError) throw providerError;

  const finalReference = await reference;
  const candidates = [...results.values()].sort((a, b) => a.index - b.index);
  const verified = candidates
    .filter((c) => c.verified && c.duplicateOf === null)
    // Smallest change first; among equals the provider's order (the mutation generator puts likelier edits first),
    // never the run time, which is noise.
    .sort((a, b) => a.changeSize - b.changeSize || a.changedCharacters - b.changedCharacters || a.index - b.index)
    .map((c) => c.index);
  const n = candidates.length;
  const c = candidates.filter((r) => r.verdict.status === 'pass').length;
  const kEff = Math.min(request.k, n);
  const atK: Record<string, number> = {};
  const hatK: Record<string, number> = {};
  if (n > 0) {
    for (const k of new Set([1, kEff])) {
      atK[String(k)] = passAtK(n, c, k);
      hatK[String(k)] = passHatK(n, c, k);
    }
  }
  const result: FixResult = {
    relativePath,
    testCommand,
    baseline,
    baselinePassed: (baseline as Verdict | null)?.status === 'pass',
    perTest: finalReference.plan !== undefined,
    failingTests: finalReference.plan?.failing ?? [],
    candidates,
    verified,
    samples: n,
    passed: c,
    lost,
    k: kEff,
    passAtK: atK,
    passHatK: hatK,
    ...(stoppedEarly ? { stoppedEarly } : {}),
    durationMs: Math.round(performance.now() - started),
    originalText,
    start,
    end,
  };
  onEvent({ type: 'done', result });
  return result;
}
