// The steps a request takes one after another, whatever runs beside them, read from its time-stamped log and --json:
// the CLI's start-up before the baseline's process, the baseline (stage 1 needs its failing tests), one stage-1
// process (a candidate passes its failing tests there before its full run starts), and, where a candidate went on to
// a full run that did not start beside the baseline, that full run, in a process of its own. Their sum is what a
// request cannot go below on any number of cores; the bench sets it beside the request to tell what the engine could
// still win from what its rules cost.

/** A line of the CLI's stderr and when it came, in ms since the request started. */
export interface Timed {
  readonly at: number;
  readonly text: string;
}

/** A candidate as the CLI's --json lists it (the fields the chain reads). */
export interface ChainCandidate {
  /** From 0; the log names it `#index+1`. */
  readonly index: number;
  readonly durationMs: number;
  /** 'failing-tests': its verdict came from stage 1; 'full': it passed stage 1 and went on to its full run. */
  readonly stage?: string;
  /** The candidate it repeats (it ran nothing of its own); null or absent for none. */
  readonly duplicateOf?: number | null;
}

export interface Chain {
  /** From the CLI's start to the baseline's process start: node, the sandbox probe, the listing, the candidates' parse. */
  readonly startupMs: number;
  readonly baselineMs: number;
  /**
   * The cheapest stage-1 run in a process of its own, start-up included: a shared process's first round (what a
   * candidate that failed there took), else a candidate's own stage-1 run. Absent where none ended at stage 1.
   */
  readonly stageOneProcessMs?: number;
  /**
   * Whether a candidate needed a full run after its stage 1: one that passed stage 1, other than a head start that
   * stood as its full run (it began beside the baseline: on enough cores it ends a suite after the start-up, before
   * the baseline and a stage-1 process have).
   */
  readonly fullRunAfter: boolean;
}

const BASELINE_LINE = /^baseline \(unmodified code\):/;
/** "stage 1 of candidates #2, #4, #6 shared one mocha process (0.4 s), …": the first named ran first. */
const SHARED_LINE = /stage 1 of candidates (#\d+(?:, #\d+)*) shared one /;
const HEAD_START = /candidate #(\d+)'s full run starts beside the baseline/;
/** A head start that did not stand: the candidate ran a full run of its own after all. */
const HEAD_START_LOST = /candidate #(\d+)'s full run beside the baseline (?:did not pass|ran past)/;

/**
 * The request's chain from its log and --json; undefined without a baseline line (no baseline ran). `baselineMs` is
 * the --json baseline's duration (the log rounds it to 0.1 s).
 */
export function chainOf(lines: readonly Timed[], baselineMs: number | undefined, candidates: readonly ChainCandidate[]): Chain | undefined {
  const baseline = lines.find((line) => BASELINE_LINE.test(line.text.replace(/^verified-fix: /, '')));
  if (!baseline || baselineMs === undefined) return undefined;
  const stageOne = candidates.filter((c) => c.stage === 'failing-tests' && (c.duplicateOf ?? null) === null);
  const own = stageOne.filter((c) => ranInOwnProcess(lines, c.index)).map((c) => c.durationMs);
  const indexes = (pattern: RegExp) => new Set(lines.flatMap((line) => {
    const match = pattern.exec(line.text);
    return match ? [Number(match[1]) - 1] : [];
  }));
  const lost = indexes(HEAD_START_LOST);
  const headStarts = [...indexes(HEAD_START)].filter((index) => !lost.has(index));
  return {
    startupMs: Math.max(0, baseline.at - baselineMs),
    baselineMs,
    ...(own.length ? { stageOneProcessMs: Math.min(...own) } : {}),
    fullRunAfter: candidates.some((c) => c.stage === 'full' && !headStarts.includes(c.index)),
  };
}

/** The candidates a shared-process line names, in the order they ran; undefined for another line. */
function sharedNames(text: string): number[] | undefined {
  const list = SHARED_LINE.exec(text)?.[1];
  return list === undefined ? undefined : [...list.matchAll(/#(\d+)/g)].map((m) => Number(m[1]) - 1);
}

/**
 * Whether candidate `index`'s stage-1 verdict came from a process of its own, start-up included: the first round of
 * the shared process whose line follows its verdict and names it, or a run that no such line names. A later round
 * starts on a runner already warm (its test files' first load, a transform cache) and is no process's cost.
 */
function ranInOwnProcess(lines: readonly Timed[], index: number): boolean {
  const verdict = lines.findLastIndex((line) => line.text.startsWith(`candidate #${index + 1} `));
  if (verdict < 0) return false;
  for (const line of lines.slice(verdict + 1)) {
    const names = sharedNames(line.text);
    if (names?.includes(index)) return names[0] === index;
  }
  return true;
}

/**
 * What no scheduling can take below: start-up, the baseline, one stage-1 process and, where one followed, a full run
 * (`suiteMs`, the bare suite, stands for it). Where no candidate ended at stage 1, that step counts as nothing.
 */
export function chainFloorMs(chain: Chain, suiteMs: number): number {
  return chain.startupMs + chain.baselineMs + (chain.stageOneProcessMs ?? 0) + (chain.fullRunAfter ? suiteMs : 0);
}
