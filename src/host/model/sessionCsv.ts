// The session as CSV, one row per task: what spreadsheets and scripts read without knowing human-eval's format.
import { passAtK, passHatK } from '../../core/statistics/passAtK';
import type { StoredTask } from './sessionSchema';
import { lineLabel } from './labels';

function csvField(value: string | number): string {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row per task: where, when, n, c, the outcomes and this task's pass@1 / pass@k / pass^k. */
export function formatSessionCsv(tasks: readonly StoredTask[], k: number): string {
  const header = ['task_id', 'file', 'lines', 'started', 'duration_s', 'n', 'c', 'verified', 'outcomes', 'pass@1', `pass@${k}`, `pass^${k}`];
  const rows = tasks.map((t) => {
    const n = t.outcomes.length;
    const c = t.outcomes.filter((o) => o === 'pass').length;
    const at = (kk: number, f: typeof passAtK) => (n >= kk ? f(n, c, kk).toFixed(4) : '');
    return [t.id, t.file, lineLabel(t.startLine, t.endLine), new Date(t.startedAt).toISOString(), (t.durationMs / 1000).toFixed(1), n, c, t.verified.length, t.outcomes.join(' '), at(1, passAtK), at(k, passAtK), at(k, passHatK)];
  });
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}
