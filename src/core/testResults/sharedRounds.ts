// What the runners' hooks and the engine agree on for a shared stage-1 run: one started runner, one round per
// candidate (the mocha hook and the pytest plugin run the rounds; verification/stageOneBatch.ts plans and reads them).

/**
 * The plan's file, beside the candidates' texts in the run's output folder: `{target, first, texts, roundMs}` (the
 * file under repair, relative to the working folder; `first`, the text the run starts with, and `texts`, those of the
 * candidates after it, as file names beside the plan; `roundMs`, the CPU time one round may take; `stopAfterPass`: end
 * the process after a round that passed, so that the request's first fix need not wait for the other rounds, unless
 * they take less time than the process took to start: a process of their own would cost them more, and the fix waits
 * less than that start. A round's cost is learnt from one loaded anew, so a pass in the first round goes on for one).
 */
export const ROUNDS_PLAN_FILE = 'verified-fix-batch.json';

/**
 * The key of the report line that closes a finished round in the runners whose reports are JSON lines (pytest's
 * plugin, tape's hook): `{"<mark>": round, "ms": n}`; the lines after the last one are a round that did not finish.
 */
export const ROUND_MARK = 'verified_fix_round';

/** The key of the report line that says why the run stopped before its last round: a key of ROUND_STOPS, and `detail`. */
export const STOPPED_MARK = 'verified_fix_stopped';

/** Written beside the plan when a round ran past its limit: `<round, 0-based> <cpu ms>`; the process then ends. */
export const ROUNDS_OVERRUN_FILE = 'verified-fix-batch-overrun.txt';

/**
 * Why a shared run ended before its last round, each as the log says it. The hooks report the key (the report's
 * `stopped`) and, for some, a detail (`detail`: the changed property, the load error); the engine decides by the key.
 */
export const ROUND_STOPS = {
  firstPass: 'a candidate passed, the first of the request to: it goes on to its own runs at once',
  leftRunning: 'a test timed out or threw outside a test, and what it left running could reach the next candidate',
  global: 'a candidate left a new global',
  builtins: 'a candidate changed a built-in object or a core module',
  handle: 'a candidate left a timer or a handle open',
  equalsAnything: 'a candidate made objects that equal anything',
  thread: 'a candidate left a thread running',
  notRequired: 'the tests did not load the file under repair through require (ES modules cannot be loaded anew)',
  notImported: 'the tests did not import the file under repair as a module of the project',
  loadedElsewhere: 'the file under repair was loaded by something other than the tests',
  packageKeeps: 'a package loaded a project module and would keep its first version',
  notSame: 'a round did not run the same tests on the next candidate',
  unwritable: 'the file under repair could not be rewritten',
  unloadable: 'a candidate could not be loaded',
  keptByWorkers: 'the runner keeps its workers from one run to the next, and what they loaded with them',
} as const;

/** A key of ROUND_STOPS. */
export type RoundStop = keyof typeof ROUND_STOPS;

/** Why a shared run stopped, as the hook reported it. */
export interface Stopped {
  readonly stop: RoundStop;
  readonly detail?: string;
}

/** The stop's words for the log: "a candidate changed a built-in object or a core module (String.prototype.trim)". */
export function describeStop({ stop, detail }: Stopped): string {
  return detail ? `${ROUND_STOPS[stop]} (${detail})` : ROUND_STOPS[stop];
}

/** The report's `stopped` and `detail` as a Stopped; undefined for a key no hook writes. */
export function stoppedOf(stop: unknown, detail: unknown): Stopped | undefined {
  if (typeof stop !== 'string' || !Object.hasOwn(ROUND_STOPS, stop)) return undefined;
  return typeof detail === 'string' && detail ? { stop: stop as RoundStop, detail } : { stop: stop as RoundStop };
}

/**
 * Stops the next shared process would meet as well: after one of them ends a process at its first round, stage 1
 * is not shared for the rest of the request.
 */
export const STRUCTURAL_STOPS: readonly RoundStop[] = ['notRequired', 'notImported', 'loadedElsewhere', 'packageKeeps', 'notSame', 'unwritable', 'keptByWorkers'];
