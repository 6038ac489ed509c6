// Shows an Outcome in VS Code: the browser's list, the message and what each of its buttons does.
import * as vscode from 'vscode';
import type { FixResult } from '../core/contract/fixRequest';
import type { BrowsableTask, CandidateBrowser } from './candidateBrowser';
import type { Log } from './log';
import type { Outcome, OutcomeAction } from './model/outcome';
import { formatRunReport } from './model/runReport';

/** Does not wait for the user, so the command's promise settles when the run does. */
export function presentOutcome(outcome: Outcome, task: BrowsableTask, result: FixResult, location: string, deps: { readonly log: Log; readonly browser: CandidateBrowser }): void {
  const { log, browser } = deps;
  if (outcome.list === 'present') browser.present(task, false);
  else if (outcome.list === 'update') browser.update(task);
  const act = (choice: OutcomeAction | undefined): void => {
    if (choice === 'Show Candidates') browser.showPicker();
    if (choice === 'Details') showDetails(task, result, location);
    if (choice === 'Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'verifiedFix');
  };
  if (outcome.message) {
    const { severity, text, actions } = outcome.message;
    void (severity === 'warn' ? log.warn(text, ...actions) : log.info(text, ...actions)).then(act);
  }
  if (outcome.openPicker) browser.showPicker();
}

/** The run report, rendered as a report is read; its source only where the Markdown preview is not there. */
function showDetails(task: BrowsableTask, result: FixResult, location: string): void {
  const report = task.run.addDocument('report', `${location.replace(/[:/\\]/g, '_')}.md`, formatRunReport(result, location));
  void vscode.commands.executeCommand('markdown.showPreview', report).then(undefined, () => vscode.window.showTextDocument(report, { preview: true }));
}
