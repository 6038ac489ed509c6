// The generation phase: the provider's samples fed into verification as they arrive, repair rounds while none is
// verified, and the fallback provider when the first one finds nothing.
import type { CandidatePool, Sample } from './candidatePool';
import { askInRounds } from './repairRounds';
import { UserError } from '../base/errors';
import { applyReplacement } from '../base/textRange';
import type { Logger } from '../base/logger';
import type { CandidateResult, FixEvent, FixRequest, UnfinishedCandidate } from '../contract/fixRequest';
import type { CandidateProvider, LostSample, RepairContext } from '../contract/provider';
import type { PreparedRequest } from '../request/checkRequest';
import type { Verifier } from '../verification/verifier';
import type { Baseline } from './baseline';

export interface GenerationOptions {
  readonly request: FixRequest;
  readonly prepared: PreparedRequest;
  readonly baseline: Baseline;
  readonly pool: CandidatePool;
  readonly verifier: Verifier;
  /** Settles when candidates may start verifying (staged ones need the baseline's failing tests first). */
  readonly readyToVerify: Promise<unknown>;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly onEvent: (event: FixEvent) => void;
}

/** Asks the providers for candidates and verifies them; one object per request. */
export class Generation {
  /** Samples that could not be obtained, with why. */
  readonly lost: LostSample[] = [];
  /** Candidates that passed their failing tests when a stop ended their full run. */
  readonly unfinished: UnfinishedCandidate[] = [];
  private readonly verifications: Array<Promise<void>> = [];
  private index = 0;
  private requested = 0;
  private tested = 0;

  constructor(private readonly options: GenerationOptions) {}

  /** Settles when every verification started so far has its verdict. */
  settled(): Promise<unknown> {
    return Promise.all(this.verifications);
  }

  /** The first provider (with its repair rounds), then the fallback if no candidate was verified; rejects if a provider fails. */
  async run(): Promise<void> {
    const { request, pool, signal, logger, onEvent } = this.options;
    const fallback = request.fallbackProvider;
    try {
      await this.ask(request.provider);
    } catch (error) {
      // A first provider that cannot serve this request (no grammar for the language, say) hands it on.
      if (!(fallback && error instanceof UserError) || signal.aborted) throw error;
      logger.warn(`${request.provider.name}: ${error.message}; asking ${fallback.name}`);
      onEvent({ type: 'warning', message: `${request.provider.name}: ${error.message}` });
    }
    if (!fallback || signal.aborted) return;
    // The fallback (a model, typically) costs money or time: ask it only once every first-phase verdict is in.
    await this.settled();
    if (signal.aborted || pool.anyVerified) return;
    logger.info(`no ${request.provider.name} candidate was verified; asking ${fallback.name}`);
    onEvent({ type: 'fallback', provider: fallback.name });
    await this.ask(fallback);
  }

  /** One provider's samples, and its repair rounds while none is verified (engine/repairRounds.ts). */
  private ask(provider: CandidateProvider): Promise<unknown> {
    const { request, pool, signal, logger, onEvent } = this.options;
    return askInRounds({
      provider, repairRounds: request.repairRounds ?? 0, pool, signal, logger, onEvent,
      ask: (round, repair) => this.consume(provider, request.samples, round, repair),
      settled: () => this.settled(),
    });
  }

  /** Feeds up to `budget` of one provider's samples (of `round`) into verification as they arrive; returns their indices. */
  private async consume(provider: CandidateProvider, budget: number, round?: number, repair?: RepairContext): Promise<number[]> {
    const { request, prepared, baseline, pool, signal, logger, onEvent } = this.options;
    const taken: number[] = [];
    this.requested += budget;
    this.progress();
    const samples = provider.generate({
      languageId: prepared.languageId,
      relativePath: prepared.relativePath,
      fileText: prepared.text,
      start: prepared.start,
      end: prepared.end,
      samples: budget,
      baseline: baseline.report,
      testsStarted: baseline.started,
      ...(request.faultLocalisation !== false ? { localise: baseline.localise } : {}),
      ...(repair ? { repair } : {}),
      signal,
      logger,
    });
    for await (const sample of samples) {
      if (signal.aborted) break;
      if (sample.kind === 'lost') {
        this.lost.push({ kind: sample.lostKind, message: sample.reason });
        onEvent({ type: 'lost', reason: sample.reason, kind: sample.lostKind });
        continue;
      }
      if (taken.length >= budget) break;
      const i = this.index++;
      taken.push(i);
      const tags = { ...(round !== undefined ? { round } : {}), ...(sample.usage ? { usage: sample.usage } : {}) };
      if (sample.kind === 'invalid') {
        this.report([pool.addInvalid({ index: i, ...tags }, `unusable answer: ${sample.reason}`)]);
        continue;
      }
      const valid: Sample = { index: i, replacement: sample.text, ...(sample.label ? { label: sample.label } : {}), ...tags };
      const added = pool.add(valid);
      this.report(added.finished);
      if (added.run) this.verifications.push(this.verify(valid));
    }
    return taken;
  }

  /** Verifies `sample` once candidates may start; one that comes while the baseline runs may start its full run at once. */
  private async verify(sample: Sample): Promise<void> {
    const { prepared, verifier, pool, readyToVerify } = this.options;
    const { text, start, end } = prepared;
    const fileText = applyReplacement(text, start, end, sample.replacement);
    verifier.headStart(sample.index, text.slice(start, end), sample.replacement, fileText);
    await readyToVerify;
    const outcome = await verifier.verify(sample.index, text.slice(start, end), sample.replacement, fileText);
    if (outcome) this.report(pool.complete(sample, outcome.runs, outcome.evidence));
    const survived = outcome ? undefined : verifier.passedFailingTestsOnly(sample.index);
    if (survived) this.unfinished.push(pool.unfinished(sample, survived));
  }

  private report(finished: readonly CandidateResult[]): void {
    for (const candidate of finished) this.options.onEvent({ type: 'verdict', candidate });
    this.tested += finished.length;
    if (finished.length > 0) this.progress();
  }

  private progress(): void {
    const verified = this.options.pool.candidates.filter((c) => c.verified && c.duplicateOf === null).length;
    this.options.onEvent({ type: 'progress', tested: this.tested, requested: this.requested, verified });
  }
}
