// Orchestrates one request: baseline and generation at once, each candidate verified in its own copy, verdicts streamed.
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import pLimit from 'p-limit';
import { changedCharacters, changeSize, unifiedDiff } from './diffing';
import { UserError } from './errors';
import type { CandidateResult, FixEvent, FixRequest, FixResult, Verdict } from './fixRequest';
import { silentLogger } from './logger';
import { passAtK, passHatK } from './passAtK';
import type { BaselineReport, CandidateProvider, SampleUsage } from './providers/provider';
import { prepareRequest } from './requestCheck';
import { describeProtections } from './sandbox';
import { createRequestFolder } from './tempRoot';
import { changedTestFiles, hashTestFiles } from './testFileGuard';
import { runTestCommand } from './testRunner';
import { applyReplacement } from './textRange';
import { createCopy, pathInCopy, removeCopy } from './workspaceCopy';

/**
 * Candidates that differ only in line endings, trailing spaces or surrounding blank lines are the same program.
 * Indentation and inner spaces are kept: they matter in Python and inside string literals.
 */
function normalise(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').replace(/^\n+|\n+$/g, '');
}

/** Tail of the baseline output given to providers: enough for a stack trace, small enough for a prompt. */
const BASELINE_REPORT_CHARS = 4000;

function errorVerdict(reason: string, durationMs = 0): Verdict {
  return { status: 'error', exitCode: null, durationMs, reason, output: '', stdout: '', stderr: '' };
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
  const logger = request.logger ?? silentLogger;
  const prepared = await prepareRequest(request, logger);
  const { relativePath, text: originalText, start, end, testCommand, capabilities, listing } = prepared;
  // Before the timer and listeners below: a failure here must leave nothing running.
  const requestDir = await createRequestFolder();
  let testHashes;
  try {
    testHashes = await hashTestFiles(request.workspace, listing.files, relativePath);
  } catch (error) {
    await rm(requestDir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }

  const controller = new AbortController();
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
  onEvent({ type: 'started', testCommand, protections: describeProtections(capabilities, request.isolation) });
  for (const message of prepared.warnings) {
    logger.warn(message);
    onEvent({ type: 'warning', message });
  }
  logger.info(`test command: ${testCommand}; ${listing.files.length} files copied per run (${listing.source}), linked: ${listing.linkedFolders.join(', ') || 'none'}`);

  const removals: Array<Promise<void>> = [];
  /** One test run of `fileText` in a fresh copy; never throws. */
  const runOnce = async (fileText: string, label: string): Promise<Verdict> => {
    if (controller.signal.aborted) return errorVerdict('cancelled');
    // A copy of a vanished workspace would hold only the target file, and its verdict would mean nothing.
    if (!existsSync(request.workspace)) return errorVerdict('the workspace folder was removed during the run');
    const t0 = performance.now();
    let copyDir: string | undefined;
    try {
      copyDir = await createCopy(listing, requestDir, label);
      await writeFile(pathInCopy(copyDir, relativePath), fileText);
      const verdict = await runTestCommand({
        command: testCommand,
        cwd: copyDir,
        readOnlyPaths: [request.workspace],
        timeoutMs: request.testTimeoutMs,
        signal: controller.signal,
        capabilities,
        allowNetwork: request.isolation.allowNetwork,
        memoryMB: request.isolation.memoryMB,
      });
      // A cancelled run is dropped, not judged: its reason must survive.
      const tampered = verdict.reason === 'cancelled' ? [] : await changedTestFiles(copyDir, testHashes);
      if (tampered.length > 0) return { ...verdict, status: 'error', reason: `the run modified test files: ${tampered.join(', ')}` };
      return verdict;
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      logger.error(err);
      const what = copyDir ? 'run failed' : 'copy failed';
      return errorVerdict(`${what}: ${err.code === 'ENOSPC' ? 'no space left in the temp folder' : err.message}`, Math.round(performance.now() - t0));
    } finally {
      // Removal does not hold the run's slot: the next candidate starts while this copy goes (awaited at the end).
      if (copyDir) removals.push(removeCopy(copyDir).catch((error: Error) => logger.warn(`could not remove ${copyDir}: ${error.message}`)));
    }
  };

  let resolveBaseline: (report: BaselineReport | undefined) => void = () => undefined;
  const baselineReport = new Promise<BaselineReport | undefined>((resolve) => (resolveBaseline = resolve));
  let baseline: Verdict | null = null;
  const baselineDone = request.baselineCheck
    ? limit(() => runOnce(originalText, 'baseline')).then((verdict) => {
        baseline = verdict;
        onEvent({ type: 'baseline', verdict });
        if (verdict.status === 'pass') logger.warn('the tests pass on the unmodified code: they do not catch the bug, so a passing candidate proves little');
        resolveBaseline({ status: verdict.status, output: verdict.output.slice(-BASELINE_REPORT_CHARS) });
      })
    : Promise.resolve(resolveBaseline(undefined));

  const results = new Map<number, CandidateResult>();
  const firstOf = new Map<string, number>();
  const waiting = new Map<number, Pending[]>();
  const lost: string[] = [];
  const verifications: Array<Promise<void>> = [];

  const finish = (pending: Pending, runs: Verdict[], confirmRuns: number) => {
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
      verified: runs.length >= confirmRuns && passes === runs.length,
      flaky: passes > 0 && passes < runs.length,
      diff: pending.invalidReason ? '' : unifiedDiff(relativePath, originalText, after),
      changeSize: pending.invalidReason ? 0 : changeSize(originalText, after),
      changedCharacters: pending.invalidReason ? 0 : changedCharacters(originalText.slice(start, end), pending.replacement),
    };
    results.set(pending.index, result);
    onEvent({ type: 'verdict', candidate: result });
  };

  const verify = async (pending: Pending) => {
    const fileText = applyReplacement(originalText, start, end, pending.replacement);
    const runs = [await runOnce(fileText, `c${pending.index}`)];
    // Confirmation runs catch flaky passes: a pass is shown only if it repeats.
    while (runs[0].status === 'pass' && runs.length < request.confirmRuns && !controller.signal.aborted) {
      const again = await runOnce(fileText, `c${pending.index}r${runs.length + 1}`);
      if (controller.signal.aborted && again.reason === 'cancelled') break;
      runs.push(again);
    }
    if (controller.signal.aborted && runs[0].reason === 'cancelled') return; // never ran: not a sample
    finish(pending, runs, request.confirmRuns);
    for (const dup of waiting.get(pending.index) ?? []) finish(dup, runs, request.confirmRuns);
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
        finish({ index: i, replacement: '', duplicateOf: null, invalidReason: reason, ...(sample.usage ? { usage: sample.usage } : {}) }, [{ ...errorVerdict(reason), status: 'fail' }], request.confirmRuns);
        continue;
      }
      const key = normalise(sample.text);
      const duplicateOf = firstOf.get(key) ?? null;
      const pending: Pending = { index: i, replacement: sample.text, duplicateOf, ...(sample.label ? { label: sample.label } : {}), ...(sample.usage ? { usage: sample.usage } : {}) };
      onEvent({ type: 'generated', index: i, replacement: sample.text, duplicateOf });
      if (duplicateOf === null) {
        firstOf.set(key, i);
        verifications.push(limit(() => verify(pending)));
      } else {
        const original = results.get(duplicateOf);
        if (original) finish(pending, [...original.runs], request.confirmRuns);
        else waiting.set(duplicateOf, [...(waiting.get(duplicateOf) ?? []), pending]);
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
    await Promise.all(removals);
    await rm(requestDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
  if (providerError) throw providerError;

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
