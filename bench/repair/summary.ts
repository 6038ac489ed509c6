// The repair bench's arithmetic: from one n = max request per task and selection, what the first n candidates would have done.
import { median } from '../engineBench';

/** The two selections a user makes: exactly the buggy lines, or the whole enclosing function. */
export type SelectionKind = 'exact' | 'function';
/** Every selection kind, in the order the table lists them. */
export const SELECTION_KINDS: readonly SelectionKind[] = ['exact', 'function'];

/** A verified candidate, judged by the task's hidden tests. */
export interface VerifiedCandidate {
  /** 0-based position in the provider's order: the candidate is among the first n when index < n. */
  readonly index: number;
  /** Passed the hidden tests too. */
  readonly correct: boolean;
  /**
   * 0-based place in the list the user is shown (the engine's ranking: fewest lines, then characters changed, then
   * the provider's order); the first n candidates' list keeps the same relative order.
   */
  readonly shown: number;
  readonly label?: string;
}

/** What one request (one task, one selection kind) showed. */
export interface RequestOutcome {
  readonly task: string;
  readonly selection: SelectionKind;
  readonly language: string;
  readonly multiToken: boolean;
  /** Candidates obtained (fewer than asked when the generator has fewer mutants). */
  readonly samples: number;
  /** Mutants the generator has for this selection in all, whatever n. */
  readonly mutants: number;
  /** 1-based position of the task's reference fix among all mutants; null when the generator never produces it. */
  readonly referenceRank: number | null;
  readonly verified: readonly VerifiedCandidate[];
  readonly durationMs: number;
  /** From the request's start to the first verified verdict; null when none was verified. */
  readonly firstVerifiedMs: number | null;
  readonly baseline: string;
}

/** One row of the table: a selection kind at one n. */
export interface SummaryRow {
  readonly selection: SelectionKind;
  readonly n: number;
  readonly tasks: number;
  readonly fixed: number;
  readonly fixedSingleToken: string;
  readonly fixedMultiToken: string;
  readonly fixedByLanguage: Readonly<Record<string, string>>;
  /** Tasks with a verified candidate among the first n that fails the hidden tests. */
  readonly wrong: number;
  /** Tasks where the top of the list the user is shown, among the first n, fails the hidden tests. */
  readonly wrongFirst: number;
  /**
   * Of those, the tasks where it is the only distinct fix verified, so the list does not say "several different
   * fixes pass: the tests do not decide between them": a wrong fix shown with nothing to doubt it.
   */
  readonly wrongAlone: number;
  /** Median 1-based rank of the first correct candidate, over the tasks fixed within n; null when none is. */
  readonly medianRank: number | null;
}

/** 1-based rank of the first correct verified candidate among the first n, or undefined. */
export function firstCorrectRank(outcome: RequestOutcome, n: number): number | undefined {
  const first = outcome.verified.filter((c) => c.correct && c.index < n).sort((a, b) => a.index - b.index)[0];
  return first ? first.index + 1 : undefined;
}

/** The verified candidate among the first n that the list shows first, or undefined. */
export function topShown(outcome: RequestOutcome, n: number): VerifiedCandidate | undefined {
  return outcome.verified.filter((c) => c.index < n).sort((a, b) => a.shown - b.shown)[0];
}

/** How many different fixes the list shows among the first n (duplicates share their original's place). */
export function distinctFixes(outcome: RequestOutcome, n: number): number {
  return new Set(outcome.verified.filter((c) => c.index < n).map((c) => c.shown)).size;
}

const ratio = (part: number, whole: number) => `${part}/${whole}`;

/** The table's rows: each selection kind at each n, all derived from the same requests. */
export function summarize(outcomes: readonly RequestOutcome[], ns: readonly number[], kinds: readonly SelectionKind[]): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const selection of kinds) {
    const mine = outcomes.filter((o) => o.selection === selection);
    for (const n of ns) {
      const ranks = mine.map((o) => firstCorrectRank(o, n));
      const fixedWhere = (keep: (o: RequestOutcome) => boolean) => mine.filter((o, i) => keep(o) && ranks[i] !== undefined).length;
      const languages = [...new Set(mine.map((o) => o.language))].sort();
      const found = ranks.filter((r): r is number => r !== undefined);
      rows.push({
        selection,
        n,
        tasks: mine.length,
        fixed: found.length,
        fixedSingleToken: ratio(fixedWhere((o) => !o.multiToken), mine.filter((o) => !o.multiToken).length),
        fixedMultiToken: ratio(fixedWhere((o) => o.multiToken), mine.filter((o) => o.multiToken).length),
        fixedByLanguage: Object.fromEntries(languages.map((l) => [l, ratio(fixedWhere((o) => o.language === l), mine.filter((o) => o.language === l).length)])),
        wrong: mine.filter((o) => o.verified.some((c) => !c.correct && c.index < n)).length,
        wrongFirst: mine.filter((o) => topShown(o, n)?.correct === false).length,
        wrongAlone: mine.filter((o) => topShown(o, n)?.correct === false && distinctFixes(o, n) === 1).length,
        medianRank: found.length > 0 ? median(found) : null,
      });
    }
  }
  return rows;
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
}

/** The results table, one line per selection kind and n, columns aligned. */
export function formatTable(rows: readonly SummaryRow[]): string {
  const languages = [...new Set(rows.flatMap((r) => Object.keys(r.fixedByLanguage)))].sort();
  const short: Record<string, string> = { javascript: 'js', python: 'py' };
  const header = ['selection', 'n', 'fixed', 'one-token', 'multi-token', ...languages.map((l) => short[l] ?? l), 'wrong fix verified', 'wrong fix first', 'of those alone', 'median rank'];
  const body = rows.map((r) => [
    r.selection,
    String(r.n),
    `${r.fixed}/${r.tasks} (${r.tasks > 0 ? Math.round((100 * r.fixed) / r.tasks) : 0}%)`,
    r.fixedSingleToken,
    r.fixedMultiToken,
    ...languages.map((l) => r.fixedByLanguage[l] ?? '-'),
    String(r.wrong),
    String(r.wrongFirst),
    String(r.wrongAlone),
    r.medianRank === null ? '-' : String(r.medianRank),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i].length)));
  return [pad(header, widths), ...body.map((cells) => pad(cells, widths))].join('\n');
}

/** "exact: 12.3 s per task (median of 46), first verified candidate after 3.4 s (median of 20 tasks with one)". */
export function formatTimes(outcomes: readonly RequestOutcome[], kinds: readonly SelectionKind[], maxN: number): string[] {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return kinds.map((selection) => {
    const mine = outcomes.filter((o) => o.selection === selection);
    if (mine.length === 0) return `${selection}: no requests`;
    const firsts = mine.map((o) => o.firstVerifiedMs).filter((ms): ms is number => ms !== null);
    const first = firsts.length > 0 ? `first verified candidate after ${s(median(firsts))} (median of the ${firsts.length} tasks with one)` : 'no candidate verified';
    return `${selection}: ${s(median(mine.map((o) => o.durationMs)))} per task at n = ${maxN} (median of ${mine.length}); ${first}`;
  });
}
