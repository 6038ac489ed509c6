// The request's candidates without any process: duplicates, results as their runs finish, ranking and statistics.
import { changedCharacters, changeSize, unifiedDiff } from '../base/diffing';
import type { CandidateResult, Evidence, TestEvidence, UnfinishedCandidate, Verdict } from '../contract/fixRequest';
import type { SampleUsage } from '../contract/provider';
import { applyReplacement } from '../base/textRange';

/**
 * Candidates that differ only in line endings, trailing spaces or surrounding blank lines are the same program.
 * Indentation and inner spaces are kept: they matter in Python and inside string literals.
 */
export function normalise(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').replace(/^\n+|\n+$/g, '');
}

/** A sample as the provider gave it, numbered in arrival order. */
export interface Sample {
  readonly index: number;
  readonly replacement: string;
  readonly label?: string;
  /** The round of asking a model that produced it (see CandidateResult.round). */
  readonly round?: number;
  readonly usage?: SampleUsage;
}

interface Pending extends Sample {
  readonly duplicateOf: number | null;
  readonly invalidReason?: string;
}

/** What the file and the request say every candidate is measured against. */
export interface PoolContext {
  readonly relativePath: string;
  readonly originalText: string;
  readonly start: number;
  readonly end: number;
  /** Passing runs a candidate needs to be verified. */
  readonly requiredRuns: number;
}

/** A request's first runs: n samples and c passes, from which every pass@k and pass^k follows. */
export interface PoolStatistics {
  readonly samples: number;
  readonly passed: number;
}

/**
 * Holds every candidate of one request. `add` says whether a sample must run or shares an earlier one's runs;
 * `complete` records runs and returns every result it finished (the candidate and the duplicates waiting for it).
 */
export class CandidatePool {
  private readonly results = new Map<number, CandidateResult>();
  private readonly firstOf = new Map<string, number>();
  private readonly waiting = new Map<number, Pending[]>();

  constructor(private readonly context: PoolContext) {}

  /**
   * A new valid sample. `run` is true when it is the first of its program and must be verified; otherwise it is a
   * duplicate, and `finished` holds its result when the original's runs are already known.
   */
  add(sample: Sample): { readonly duplicateOf: number | null; readonly run: boolean; readonly finished: CandidateResult[] } {
    const key = normalise(sample.replacement);
    const duplicateOf = this.firstOf.get(key) ?? null;
    const pending: Pending = { ...sample, duplicateOf };
    if (duplicateOf === null) {
      this.firstOf.set(key, sample.index);
      return { duplicateOf, run: true, finished: [] };
    }
    const original = this.results.get(duplicateOf);
    if (original) return { duplicateOf, run: false, finished: [this.record(pending, original.runs, evidenceOf(original))] };
    // Appended in place: copying the list per duplicate made 20,000 identical samples quadratic.
    const queue = this.waiting.get(duplicateOf);
    if (queue) queue.push(pending);
    else this.waiting.set(duplicateOf, [pending]);
    return { duplicateOf, run: false, finished: [] };
  }

  /** A sample the provider could not turn into code: a failed sample with its reason. */
  addInvalid(sample: Omit<Sample, 'replacement'>, reason: string): CandidateResult {
    const verdict: Verdict = { status: 'fail', exitCode: null, durationMs: 0, reason, cause: 'invalidAnswer', output: '', stdout: '', stderr: '' };
    return this.record({ ...sample, replacement: '', duplicateOf: null, invalidReason: reason }, [verdict], {});
  }

  /** The runs of the first sample of a program; returns its result and those of the duplicates that waited for it. */
  complete(sample: Sample, runs: readonly Verdict[], evidence: Evidence): CandidateResult[] {
    const finished = [this.record({ ...sample, duplicateOf: null }, runs, evidence)];
    for (const duplicate of this.waiting.get(sample.index) ?? []) finished.push(this.record(duplicate, runs, evidence));
    this.waiting.delete(sample.index);
    return finished;
  }

  /** A sample whose full run a stop cut short after it passed the failing tests; not recorded, since it has no verdict. */
  unfinished(sample: Sample, tests: TestEvidence): UnfinishedCandidate {
    const { relativePath, originalText, start, end } = this.context;
    const diff = unifiedDiff(relativePath, originalText, applyReplacement(originalText, start, end, sample.replacement));
    return { index: sample.index, ...(sample.label ? { label: sample.label } : {}), replacement: sample.replacement, diff, fixed: tests.fixed };
  }

  /** Replaces a finished candidate's result and its duplicates' (the top fix's full-suite run); returns the new ones. */
  amend(index: number, change: (result: CandidateResult) => CandidateResult): CandidateResult[] {
    const changed = [...this.results.values()].filter((c) => c.index === index || c.duplicateOf === index).map(change);
    for (const c of changed) this.results.set(c.index, c);
    return changed;
  }

  get anyVerified(): boolean {
    return [...this.results.values()].some((c) => c.verified);
  }

  /** Every finished candidate, in arrival order. */
  get candidates(): CandidateResult[] {
    return [...this.results.values()].sort((a, b) => a.index - b.index);
  }

  /**
   * Verified candidates, duplicates left out, best first: the smallest change, then the fewest characters, then the
   * provider's order (the mutation generator puts likelier edits first), never the run time, which is noise.
   */
  ranking(): number[] {
    return this.candidates
      .filter((c) => c.verified && c.duplicateOf === null)
      .sort((a, b) => a.changeSize - b.changeSize || a.changedCharacters - b.changedCharacters || a.index - b.index)
      .map((c) => c.index);
  }

  /** n and c count first runs. */
  statistics(): PoolStatistics {
    const candidates = this.candidates;
    return { samples: candidates.length, passed: candidates.filter((r) => r.verdict.status === 'pass').length };
  }

  private record(pending: Pending, runs: readonly Verdict[], evidence: Evidence): CandidateResult {
    const { relativePath, originalText, start, end, requiredRuns } = this.context;
    const after = pending.invalidReason ? originalText : applyReplacement(originalText, start, end, pending.replacement);
    const passes = runs.filter((r) => r.status === 'pass').length;
    const judged = countedRuns(runs, evidence.setAside);
    const result: CandidateResult = {
      index: pending.index,
      replacement: pending.replacement,
      ...(pending.label ? { label: pending.label } : {}),
      ...(pending.round !== undefined ? { round: pending.round } : {}),
      ...(pending.usage ? { usage: pending.usage } : {}),
      // A first run set aside (only tests that fail on the unmodified code too failed) is not the sample: its re-run is.
      verdict: judged[0] ?? runs[0],
      duplicateOf: pending.duplicateOf,
      runs,
      verified: passes >= requiredRuns && judged.every((r) => r.status === 'pass'),
      // A timeout is no verdict: a pass followed by one is reported as such, not as flaky.
      flaky: passes > 0 && judged.some((r) => r.status === 'fail' || r.status === 'error'),
      diff: pending.invalidReason ? '' : unifiedDiff(relativePath, originalText, after),
      changeSize: pending.invalidReason ? 0 : changeSize(originalText, after),
      changedCharacters: pending.invalidReason ? 0 : changedCharacters(originalText.slice(start, end), pending.replacement),
      ...evidence,
    };
    this.results.set(pending.index, result);
    return result;
  }
}

function evidenceOf(result: CandidateResult): Evidence {
  return { ...(result.stage ? { stage: result.stage } : {}), ...(result.tests ? { tests: result.tests } : {}), ...(result.setAside ? { setAside: result.setAside } : {}), ...(result.confirmedOn ? { confirmedOn: result.confirmedOn } : {}), ...(result.reachingTests ? { reachingTests: result.reachingTests } : {}) };
}

/** The runs that count as evidence: all but those set aside. */
function countedRuns(runs: readonly Verdict[], setAside: Evidence['setAside']): readonly Verdict[] {
  return runs.filter((_, i) => !setAside?.some((s) => s.run === i));
}
