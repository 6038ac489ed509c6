// The statistics panel's messages, both ways: tagged unions the host and media/panel.js switch over exhaustively.
import type { SampleOutcome } from '../core/statistics/sessionStats';

/** One k's session numbers with their 95% intervals (NaN when no task has n ≥ k). */
export interface HeadlineStat {
  readonly k: number;
  readonly passAtK: number;
  readonly passAtKCi95: readonly [number, number];
  readonly passHatK: number;
  readonly passHatKCi95: readonly [number, number];
  readonly tasksUsed: number;
  readonly tasksLeftOut: number;
  /** Whether enough tasks back the intervals for them to be shown (a bootstrap over a few tasks claims too much). */
  readonly showIntervals: boolean;
  /** What stands where the intervals go: "95% CI 20%–60%", or when they will appear. */
  readonly passAtKInterval: string;
  readonly passHatKInterval: string;
  /** One line each on what the two numbers mean for this session, for their hover. */
  readonly explainPassAtK: string;
  readonly explainPassHatK: string;
}

/** One point of the chart: the unbiased pass@k and pass^k, and the plug-in pass@k drawn dashed. */
export interface CurvePointView {
  readonly k: number;
  readonly passAtK: number;
  readonly passHatK: number;
  readonly plugInPassAtK: number;
}

/** One task as the panel's grid and table show it. */
export interface TaskView {
  readonly taskId: string;
  readonly file: string;
  /** "7" or "5–9" (1-based). */
  readonly lines: string;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly durationMs: number;
  readonly n: number;
  readonly c: number;
  /** Each sample's first-run outcome, in order. */
  readonly outcomes: readonly SampleOutcome[];
  /** "2 verified", "none passed", "baseline passed", "timed out", … */
  readonly outcome: string;
  /** Verified candidates kept for this task: clicking the row reopens them. */
  readonly verifiedCount: number;
  /** "range.js:3", or "range.js:3 #2" for the second request on the same lines: repeats are told apart; "range.js:clamp" when localisation chose the function. */
  readonly label: string;
  /** When localisation chose the function: how ("fix found in clamp by fault localisation from the failing test …"), the row's hover. */
  readonly localised?: string;
}

/** Average cost of one verified fix, when at least one task produced one. */
export interface CostView {
  readonly verifiedFixes: number;
  /** Of those, the ones whose best verified fix had weak tests (the strength check found variants that pass too). */
  readonly weakFixes: number;
  readonly secondsPerFix: number;
  /** Prompt + completion tokens per verified fix; undefined when no provider reported usage. */
  readonly tokensPerFix?: number;
}

/** Everything the panel draws; sent whole on every `ready` and after every change. */
export interface StatsSnapshot {
  readonly tasks: number;
  readonly samples: number;
  /** The configured k (verifiedFix.k). */
  readonly k: number;
  /** pass@1 and pass@k (k = the configured k); one entry when k = 1. */
  readonly headline: readonly HeadlineStat[];
  readonly curves: readonly CurvePointView[];
  /** Tasks sorted by passes, most first: the grid rows. */
  readonly grid: readonly TaskView[];
  /** Tasks newest first: the table rows. */
  readonly table: readonly TaskView[];
  readonly cost?: CostView;
  /** Samples that could not be obtained (model errors), over the session. */
  readonly lostSamples: number;
}

/** What protects the test runs on this machine, as the panel's Protections line says it. */
export interface ProtectionsView {
  /** One sentence: the sandbox, files, processes, network, memory. */
  readonly text: string;
  /** The same, one protection a line. */
  readonly lines: readonly { readonly label: string; readonly text: string }[];
  /** What to install for more (bubblewrap, for the user's distribution), only when the system protects less. */
  readonly hint: string | undefined;
  /** Whether a request reported them or a detection run found them before any request. */
  readonly source: 'last request' | 'detected';
}

/** Host → panel. */
export type HostMessage =
  | { readonly type: 'snapshot'; readonly snapshot: StatsSnapshot }
  | { readonly type: 'protections'; readonly protections: ProtectionsView }
  /**
   * A request is running (`text` says how far; `running` is its row in the task table, drawn above the finished
   * tasks, which stay as they are) or not (`text` undefined).
   */
  | { readonly type: 'progress'; readonly text: string | undefined; readonly running?: RunningView };

/** The running request's row in the task table. */
export interface RunningView {
  /** "sum.js:7" */
  readonly location: string;
  readonly tested: number;
  readonly total: number;
}

/** Panel → host. */
export type PanelMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'openTask'; readonly taskId: string }
  /** The Protections section's link: docs/security.md. */
  | { readonly type: 'openSecurity' };

/** Narrows an unknown posted value to a PanelMessage; anything else is dropped by the host. */
export function isPanelMessage(value: unknown): value is PanelMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { type?: unknown; taskId?: unknown };
  switch (message.type) {
    case 'ready':
    case 'openSecurity':
      return true;
    case 'openTask':
      return typeof message.taskId === 'string';
    default:
      return false;
  }
}
