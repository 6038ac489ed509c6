// Without the baseline (--no-baseline) nothing says how many tests the suite has: the candidates' own per-test
// reports are the only count, so each run is held to the most tests any run of the request ran in each file.
import type { TestEvidence, Verdict } from '../contract/fixRequest';
import { verdicts } from '../testResults/compare';
import type { ExecutedRun } from '../execution/executor';
import type { RunnerAdapter, TestResult } from '../testResults/types';

/** Tests that ran to a verdict per file (or package); 0 for a file the runner reported with no test of its own. */
type Counts = ReadonlyMap<string, number>;

/** The file (or package) an id belongs to: its part before the first ` > ` (pytest: `::`). */
function fileOf(id: string): { file: string; container: boolean } {
  const at = /::| > /.exec(id);
  return at ? { file: id.slice(0, at.index), container: false } : { file: id, container: true };
}

/**
 * Node names a file after its own path only when it reported no test of its own (it exited before them, or has none),
 * so such an entry counts 0; for other runners an id without names is a result of its own (node-tap: one per file).
 */
function countsOf(results: readonly TestResult[], runner: RunnerAdapter['name']): Map<string, number> {
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  for (const { id, outcome } of results) {
    const { file, container } = fileOf(id);
    const empty = container && runner === 'node';
    if (!counts.has(file) && (empty || outcome !== 'skipped')) counts.set(file, 0);
    if (!empty && outcome !== 'skipped' && !seen.has(id)) counts.set(file, (counts.get(file) ?? 0) + 1);
    seen.add(id);
  }
  return counts;
}

// The run labels verifier.ts gives a candidate's full runs: `c3`, its confirmations `c3r2`, re-runs `c3x1`, `c3s`.
const CANDIDATE_RUN = /^c(\d+)(?:[rx]\d+|s)?$/;

/**
 * The most tests seen per file over every full run of the request (failed ones and strength variants too: an
 * honest run of a wrong candidate still runs every test), and the counts of each candidate's passing runs, so a
 * pass judged before a larger run came in is judged again at the end (`shortfall`).
 */
export class SuiteCensus {
  private readonly most = new Map<string, number>();
  private readonly passing = new Map<number, Counts[]>();

  constructor(private readonly adapter: RunnerAdapter) {}

  /** A full run's verdict by its own report: no test, a reported file without a test, or fewer than another run fail it. */
  judge(run: ExecutedRun, label: string): { verdict: Verdict; tests: TestEvidence } {
    const results = this.adapter.parse(run.report ?? '', run.cwd ?? '');
    const counts = countsOf(results, this.adapter.name);
    for (const [file, n] of counts) this.most.set(file, Math.max(n, this.most.get(file) ?? 0));
    const ran = [...counts.values()].reduce((a, b) => a + b, 0);
    const outcomes = [...verdicts(results).values()];
    const tests: TestEvidence = { fixed: [], broke: [], stillFailing: [], passed: outcomes.filter((o) => o === 'passed').length, failed: outcomes.filter((o) => o === 'failed').length };
    if (run.verdict.status !== 'pass') return { verdict: run.verdict, tests };
    const owner = CANDIDATE_RUN.exec(label);
    if (owner) this.passing.set(Number(owner[1]), [...(this.passing.get(Number(owner[1])) ?? []), counts]);
    const reason = ran === 0 ? `no test ran (the ${this.adapter.name} report lists ${results.length === 0 ? 'none' : 'only skipped ones or files without a test'})` : this.shortOf(counts);
    return { verdict: reason ? failed(run.verdict, reason) : run.verdict, tests };
  }

  /** Why candidate `index`'s passes fall short of the most tests seen since, or undefined when none does. */
  shortfall(index: number): string | undefined {
    for (const counts of this.passing.get(index) ?? []) {
      const reason = this.shortOf(counts);
      if (reason) return reason;
    }
    return undefined;
  }

  private shortOf(counts: Counts): string | undefined {
    for (const [file, most] of this.most) {
      const n = counts.get(file) ?? 0;
      if (most > 0 && n < most) return `fewer tests ran in ${file} than in another run of this request (${n} of ${most}); without the baseline check, the runs are the only count`;
    }
    for (const [file, n] of counts) {
      if (n === 0) return `${file} ran no test of its own (it ended before its tests: an early exit?); the baseline check would say whether it has any`;
    }
    return undefined;
  }
}

function failed(verdict: Verdict, reason: string): Verdict {
  return { ...verdict, status: 'fail', reason, cause: reason.startsWith('no test') ? 'noTests' : 'fewerTests' };
}
