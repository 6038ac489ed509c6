// The interface every candidate source implements: an async stream of replacement texts for one selection.
import type { Logger } from '../base/logger';

/** What the baseline (the unmodified code) run showed; providers may use it to aim their candidates. */
export interface BaselineReport {
  readonly status: 'pass' | 'fail' | 'timeout' | 'error';
  /** Tail of stdout and stderr combined (at most a few KiB), for prompts and failure-line hints. */
  readonly output: string;
}

/** A candidate of an earlier round that the tests rejected, as a repair round shows it to the model. */
export interface FailedAttempt {
  /** Its replacement for the selection. */
  readonly replacement: string;
  /** The first lines of its failure: why it failed, then its failing tests and their messages (never its free output). */
  readonly failure: readonly string[];
}

/** A repair round: the provider is asked for fixes different from the failed candidates of the rounds before. */
export interface RepairContext {
  /** 2 for the first repair round, 3 for the next (round 1 is the first ask). */
  readonly round: number;
  /** The distinct failed candidates of the earlier rounds, newest round first. */
  readonly failed: readonly FailedAttempt[];
}

/** Where the failing tests point inside the selection (fault localisation), for providers that aim their edits. */
export interface SiteRanking {
  /** 1-based lines of the selection with any evidence, most suspicious first; the selection's other lines come after. */
  readonly lines: readonly number[];
  /** What the ranking rests on, for the log: `coverage of 2 failing and 14 passing tests`. */
  readonly evidence: string;
}

/** Everything a provider may look at. Offsets are UTF-16 code-unit offsets into `fileText`. */
export interface ProviderRequest {
  /** Language id in VS Code's spelling: `javascript`, `typescript`, `python`, `go`, … */
  readonly languageId: string;
  /** Path of the file relative to the workspace root, with `/` separators. */
  readonly relativePath: string;
  /** The whole file as the user sees it (unsaved editor text included). */
  readonly fileText: string;
  /** The selection to replace: [start, end) offsets into `fileText`. */
  readonly start: number;
  readonly end: number;
  /** How many candidates the request wants. A provider may yield fewer. */
  readonly samples: number;
  /** Settles when the baseline run ends; undefined when the baseline check is off or could not run. */
  readonly baseline: Promise<BaselineReport | undefined>;
  /**
   * Settles once the baseline's process has started (at once without one). A provider that computes candidates on
   * this machine's CPU waits for it: the run's setup needs the event loop its work would hold, and the baseline is
   * on every candidate's path.
   */
  readonly testsStarted?: Promise<void>;
  /**
   * Ranks the selection's lines by the failing tests' coverage and stack frames; call it after the baseline (it
   * reruns the baseline's tests with coverage, once per request). Settles undefined when there is no evidence to
   * rank by or it could not be had (the log says why). Absent when fault localisation is off.
   */
  readonly localise?: () => Promise<SiteRanking | undefined>;
  /** Set in a repair round (only for providers with `repairs`): the earlier failed candidates to differ from. */
  readonly repair?: RepairContext;
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/** Token counts and time, where the source reports them. */
export interface SampleUsage {
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  readonly durationMs?: number;
}

/**
 * Why a sample could not be obtained, for code to pick a remedy by (the message is for people): the server is
 * rate-limiting (`rateLimited`), failed (`server`, HTTP 5xx), gave no complete answer in time (`timeout`), could not be
 * reached (`unreachable`), refused the request (`rejected`, another HTTP status), or something else (`other`).
 */
export type LostKind = 'rateLimited' | 'server' | 'timeout' | 'unreachable' | 'rejected' | 'other';

/** A sample that could not be obtained. */
export interface LostSample {
  readonly kind: LostKind;
  readonly message: string;
}

/**
 * One sample from a provider:
 * - `candidate`: a replacement text for [start, end);
 * - `invalid`: the source answered but no replacement could be taken from it (counts as a failed sample);
 * - `lost`: the sample could not be obtained at all (a request failed); it is not counted in n.
 */
export type ProviderSample =
  | { readonly kind: 'candidate'; readonly text: string; readonly label?: string; readonly usage?: SampleUsage }
  | { readonly kind: 'invalid'; readonly reason: string; readonly raw?: string; readonly usage?: SampleUsage }
  | { readonly kind: 'lost'; readonly reason: string; readonly lostKind: LostKind };

/** The selection as a provider may see it before the request's tests can run (`CandidateProvider.prepare`). */
export type EarlySelection = Pick<ProviderRequest, 'languageId' | 'relativePath' | 'fileText' | 'start' | 'end' | 'samples'>;

/** Work a provider started early; released when the request ends, whether or not `generate` took it. */
export interface EarlyWork {
  release(): void;
}

export interface CandidateProvider {
  /** Short name for logs and results: `file`, `mutation`, `openai-compatible`, `vscode-lm`. */
  readonly name: string;
  /**
   * Called once per request as soon as the selection is known, before the sandbox is probed and the workspace
   * listed: a provider whose candidates cost this machine's CPU may start on them there, off the engine's thread.
   * `generate` then takes what it started, for the same selection.
   */
  prepare?(selection: EarlySelection): EarlyWork | undefined;
  /**
   * Reads `request.repair`: when none of its samples is verified, the engine may ask it again (a repair round, up to
   * the request's `repairRounds`) with its failed candidates. Models do; the mutation and file providers do not.
   */
  readonly repairs?: boolean;
  /**
   * Yields samples as they become available, so verification starts before generation ends.
   * Must stop promptly when `request.signal` aborts. Throwing a UserError ends the request with that
   * message (e.g. a wrong API key); other errors are reported as provider failures.
   */
  generate(request: ProviderRequest): AsyncIterable<ProviderSample>;
}
