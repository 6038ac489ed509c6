// How each runner's shared stage-1 run is asked for and read back: the variable that names the plan, and the report
// split into one round per candidate (sharedRounds.ts has what both sides agree on).
import { JEST_PROCESSOR_FILE } from '../testResults/jestProcessor';
import { JEST_BATCH_VARIABLE, JEST_ROUNDS_HOOK_FILE, JEST_ROUNDS_SOURCE } from '../testResults/jestRounds';
import { MOCHA_BATCH_VARIABLE } from '../testResults/mochaHook';
import { PYTEST_BATCH_VARIABLE } from '../testResults/pytestRounds';
import { ROUND_MARK, STOPPED_MARK, stoppedOf } from '../testResults/sharedRounds';
import { TAPE_BATCH_VARIABLE } from '../testResults/tapeRounds';
import { VITEST_BATCH_VARIABLE } from '../testResults/vitestRounds';
import type { Stopped } from '../testResults/sharedRounds';
import type { RunnerAdapter } from '../testResults/types';

/** One candidate's round: its report as the runner's adapter reads a run's, whether a test failed, and `ms` once finished. */
export interface Round {
  readonly report: string;
  readonly failed: boolean;
  readonly ms?: number;
}

/** The rounds of a shared run, and why it ended before the last, if it did. */
export interface Rounds {
  readonly rounds: readonly Round[];
  readonly stopped?: Stopped;
}

export interface RoundsDialect {
  /** As the log names the runner. */
  readonly runner: string;
  /** The variable naming the plan file for the runner's hook or plugin. */
  readonly variable: string;
  /** A `--require` hook the shared run loads (NODE_OPTIONS), where the run's own command has none that runs rounds. */
  readonly hook?: { readonly file: string; readonly source: string };
  /** The rounds in the run's report; undefined when it holds none (the hook never ran rounds). */
  parse(report: string | undefined): Rounds | undefined;
}

/** The mocha hook's report: `{rounds: [{passes, failures, pending, ms?}], stopped?, detail?}`. */
export const MOCHA_ROUNDS: RoundsDialect = {
  runner: 'mocha',
  variable: MOCHA_BATCH_VARIABLE,
  parse(report) {
    if (!report) return undefined;
    try {
      const data = JSON.parse(report) as { rounds?: unknown; stopped?: unknown; detail?: unknown };
      if (!Array.isArray(data.rounds)) return undefined;
      const rounds = data.rounds.filter((r): r is { passes?: unknown[]; failures?: unknown[]; pending?: unknown[]; ms?: unknown } => typeof r === 'object' && r !== null).map((r) => {
        const lists = { passes: r.passes ?? [], failures: r.failures ?? [], pending: r.pending ?? [] };
        return { report: JSON.stringify(lists), failed: lists.failures.length > 0, ...(typeof r.ms === 'number' ? { ms: r.ms } : {}) };
      });
      const stopped = stoppedOf(data.stopped, data.detail);
      return stopped ? { rounds, stopped } : { rounds };
    } catch {
      return undefined;
    }
  },
};

/**
 * A report of JSON lines (pytest's plugin, tape's hook), a mark line closing each finished round (`{"<mark>": round,
 * "ms": n}`) and one saying why the run stopped early; the lines after the last mark are a round that did not finish.
 * A round failed where one of its lines has the outcome `failed`.
 */
function markedRounds(runner: string, variable: string): RoundsDialect {
  return {
    runner,
    variable,
    parse(report) {
      if (!report) return undefined;
      const rounds: Round[] = [];
      let lines: string[] = [];
      let failed = false;
      let stopped: Stopped | undefined;
      let marked = false;
      for (const line of report.split('\n')) {
        if (!line.trim()) continue;
        let row: Record<string, unknown>;
        try {
          row = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue; // a line cut short by a kill
        }
        if (STOPPED_MARK in row) stopped = stoppedOf(row[STOPPED_MARK], row.detail);
        else if (typeof row[ROUND_MARK] === 'number') {
          marked = true;
          rounds.push({ report: lines.join('\n'), failed, ms: typeof row.ms === 'number' ? row.ms : 0 });
          lines = [];
          failed = false;
        } else {
          lines.push(line);
          failed ||= row.outcome === 'failed';
        }
      }
      if (!marked) return undefined;
      if (lines.length) rounds.push({ report: lines.join('\n'), failed });
      return stopped ? { rounds, stopped } : { rounds };
    },
  };
}

/** The pytest plugin's report: its JSON lines, one per test, in rounds. */
export const PYTEST_ROUNDS = markedRounds('pytest', PYTEST_BATCH_VARIABLE);

/** Tape's hook's report: its JSON lines, one per test, in rounds (tapeRounds.ts). */
export const TAPE_ROUNDS = markedRounds('tape', TAPE_BATCH_VARIABLE);

/** The jest hook's report: `{rounds: [{report, ms?}], stopped?, detail?}`, each report as the results processor wrote it. */
export const JEST_ROUNDS: RoundsDialect = {
  runner: 'jest',
  variable: JEST_BATCH_VARIABLE,
  hook: { file: JEST_ROUNDS_HOOK_FILE, source: JEST_ROUNDS_SOURCE },
  parse(report) {
    if (!report) return undefined;
    try {
      const data = JSON.parse(report) as { rounds?: unknown; stopped?: unknown; detail?: unknown };
      if (!Array.isArray(data.rounds)) return undefined;
      const rounds = data.rounds.filter((r): r is { report: string; ms?: unknown } => typeof r === 'object' && r !== null && typeof (r as { report?: unknown }).report === 'string').map((r) => {
        const files = (JSON.parse(r.report) as { testResults?: Array<{ status?: unknown }> }).testResults ?? [];
        return { report: r.report, failed: files.some((file) => file.status === 'failed'), ...(typeof r.ms === 'number' ? { ms: r.ms } : {}) };
      });
      const stopped = stoppedOf(data.stopped, data.detail);
      return stopped ? { rounds, stopped } : { rounds };
    } catch {
      return undefined;
    }
  },
};

/** The vitest reporter's report: the jest hook's shape, each round's report as vitest's json reporter wrote it. */
export const VITEST_ROUNDS: RoundsDialect = { runner: 'vitest', variable: VITEST_BATCH_VARIABLE, parse: JEST_ROUNDS.parse };

/**
 * How `adapter`'s stage-1 runs can share a started runner: mocha's and tape's hooks and pytest's plugin, and jest's
 * hook where the results processor writes the report (not where the project names its own processor and jest writes
 * --json), and vitest's reporter (either vitest adapter).
 */
export function roundsDialectOf(adapter: RunnerAdapter): RoundsDialect | undefined {
  if (adapter.name === 'mocha') return MOCHA_ROUNDS;
  if (adapter.name === 'pytest') return PYTEST_ROUNDS;
  if (adapter.name === 'jest' && adapter.outputFiles?.[JEST_PROCESSOR_FILE] !== undefined) return JEST_ROUNDS;
  if (adapter.name === 'vitest') return VITEST_ROUNDS;
  if (adapter.name === 'tape') return TAPE_ROUNDS;
  return undefined;
}
