// Turns the stored tasks into what the panel and the status bar show. Pure (no `vscode`), so both agree by construction.
import { computeSessionStats } from '../../core/statistics/sessionStats';
import type { StatsSnapshot, TaskView } from '../../shared/protocol';
import { lineLabel } from './labels';
import { localisedTitle } from './localisedTask';
import type { StoredTask } from './sessionSchema';

function outcomeOf(task: StoredTask): string {
  const c = task.outcomes.filter((o) => o === 'pass').length;
  if (task.baselinePassed) return `baseline passed, not counted${task.verified.length > 0 ? ` (${task.verified.length} verified)` : ''}`;
  // The best fix is what a user applies: its tests' strength is the task's.
  if (task.verified.length > 0) return `${task.verified.length} verified${task.verified[0].strength?.weak ? ', weak tests' : ''}`;
  if (task.outcomes.length === 0) return task.stoppedEarly ? `no samples (${task.stoppedEarly.message})` : 'no samples';
  if (c > 0) return 'flaky only';
  if (task.outcomes.every((o) => o === 'timeout')) return 'timed out';
  return 'none passed';
}

/**
 * Each task's label, "range.js:3" ("range.js:clamp" when localisation chose the function: that function is the task), numbered from the second request on the same lines ("range.js:3 #2", by start time):
 * a table with the same label twice reads like a bug.
 */
export function taskLabels(tasks: readonly StoredTask[]): Map<string, string> {
  const seen = new Map<string, number>();
  const labels = new Map<string, string>();
  for (const task of [...tasks].sort((a, b) => a.startedAt - b.startedAt)) {
    const where = task.localisedFrom ? task.localisedFrom.functionName : lineLabel(task.startLine, task.endLine);
    const base = `${task.file.split('/').pop() ?? task.file}:${where}`;
    const key = `${task.file}:${where}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    labels.set(task.id, count === 1 ? base : `${base} #${count}`);
  }
  return labels;
}

function view(task: StoredTask, label: string): TaskView {
  return {
    label,
    taskId: task.id,
    file: task.file,
    lines: lineLabel(task.startLine, task.endLine),
    startedAt: task.startedAt,
    durationMs: task.durationMs,
    n: task.outcomes.length,
    c: task.outcomes.filter((o) => o === 'pass').length,
    outcomes: task.outcomes,
    outcome: outcomeOf(task),
    verifiedCount: task.verified.length,
    ...(task.localisedFrom ? { localised: localisedTitle(task.localisedFrom, task.verified.length > 0 && !task.baselinePassed) } : {}),
  };
}

/** Below this many tasks a bootstrap interval over tasks says more than the data can: the panel shows none. */
export const MIN_TASKS_FOR_INTERVALS = 5;

function interval(range: readonly [number, number], tasks: number): string {
  if (tasks < MIN_TASKS_FOR_INTERVALS || !Number.isFinite(range[0])) return `95% interval shown from ${MIN_TASKS_FOR_INTERVALS} tasks`;
  return `95% CI ${percent(range[0])}–${percent(range[1])}`;
}

/** What pass@k and pass^k mean for this session, in a sentence each (their hover in the panel). */
function explain(k: number, tasks: number): { explainPassAtK: string; explainPassHatK: string } {
  const over = `estimated over ${tasks} task${tasks === 1 ? '' : 's'} of this session`;
  return k === 1
    ? { explainPassAtK: `pass@1: the chance that one candidate is verified, ${over}`, explainPassHatK: `pass^1: the same as pass@1 (one candidate, verified), ${over}` }
    : {
        explainPassAtK: `pass@${k}: the chance that at least one of ${k} candidates is verified, ${over}`,
        explainPassHatK: `pass^${k}: the chance that all ${k} candidates are verified, ${over}; low even when fixes are found, since it asks every candidate to pass`,
      };
}

/** The panel's whole state for `k` (the configured verifiedFix.k). */
export function buildSnapshot(tasks: readonly StoredTask[], k: number): StatsSnapshot {
  // A task whose tests pass without any fix says nothing about the candidates: nearly all of them "pass".
  const counted = tasks.filter((t) => t.outcomes.length > 0 && !t.baselinePassed);
  const ks = k === 1 ? [1] : [1, k];
  const stats = computeSessionStats(counted.map((t) => ({ taskId: t.id, outcomes: t.outcomes })), ks);
  const labels = taskLabels(tasks);
  const views = new Map(tasks.map((t) => [t.id, view(t, labels.get(t.id) ?? t.file)]));
  const fixes = tasks.filter((t) => t.verified.length > 0).length;
  const tokens = tasks.reduce((sum, t) => sum + (t.promptTokens ?? 0) + (t.completionTokens ?? 0), 0);
  const hasUsage = tasks.some((t) => t.promptTokens !== undefined || t.completionTokens !== undefined);
  return {
    tasks: stats.tasks,
    samples: stats.samples,
    k,
    headline: stats.byK.map((s) => ({
      k: s.k,
      passAtK: s.passAtK,
      passAtKCi95: s.ci95,
      passHatK: s.passHatK,
      passHatKCi95: s.passHatKCi95,
      tasksUsed: s.tasksUsed,
      tasksLeftOut: s.tasksLeftOut,
      showIntervals: s.tasksUsed >= MIN_TASKS_FOR_INTERVALS,
      passAtKInterval: interval(s.ci95, s.tasksUsed),
      passHatKInterval: interval(s.passHatKCi95, s.tasksUsed),
      ...explain(s.k, s.tasksUsed),
    })),
    curves: stats.curves.map((p) => ({ k: p.k, passAtK: p.passAtK, passHatK: p.passHatK, plugInPassAtK: p.plugInPassAtK })),
    grid: stats.table.map((row) => views.get(row.taskId)).filter((v): v is TaskView => v !== undefined),
    table: [...tasks].reverse().map((t) => views.get(t.id) as TaskView),
    ...(fixes > 0
      ? {
          cost: {
            verifiedFixes: fixes,
            weakFixes: tasks.filter((t) => t.verified[0]?.strength?.weak).length,
            secondsPerFix: tasks.reduce((sum, t) => sum + t.durationMs, 0) / 1000 / fixes,
            ...(hasUsage ? { tokensPerFix: tokens / fixes } : {}),
          },
        }
      : {}),
    lostSamples: tasks.reduce((sum, t) => sum + t.lost, 0),
  };
}

/** A probability as a whole percentage; "–" when undefined (no task has n ≥ k). */
export function percent(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value * 100)}%` : '–';
}

/** The status bar's text: "$(beaker) pass@1 34% · pass@5 71%". */
export function statusText(snapshot: StatsSnapshot): string {
  return `$(beaker) ${snapshot.headline.map((h) => `pass@${h.k} ${percent(h.passAtK)}`).join(' · ')}`;
}

/** The status bar's tooltip: tasks, samples, pass^k and the intervals (plain text, one fact per line). */
export function statusTooltip(snapshot: StatsSnapshot): string {
  const lines = [`Verified Fix: ${snapshot.tasks} task${snapshot.tasks === 1 ? '' : 's'}, ${snapshot.samples} samples`];
  for (const h of snapshot.headline) {
    // A bootstrap over a few tasks claims a certainty the data does not have: no interval below the minimum.
    const ci = (range: readonly [number, number]) => (h.showIntervals && Number.isFinite(range[0]) ? ` (95% CI ${percent(range[0])}–${percent(range[1])})` : '');
    lines.push(`pass@${h.k} ${percent(h.passAtK)}${ci(h.passAtKCi95)} · pass^${h.k} ${percent(h.passHatK)}${ci(h.passHatKCi95)}`);
    if (h.tasksLeftOut > 0) lines.push(`  (${h.tasksLeftOut} task${h.tasksLeftOut === 1 ? '' : 's'} with fewer than ${h.k} samples left out of k = ${h.k})`);
  }
  lines.push('Click to open the statistics panel.');
  return lines.join('\n');
}
