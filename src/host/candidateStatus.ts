// The status bar item that keeps a request's verified fixes within reach ("$(pass) 2 verified fixes"): the list never
// opens by itself once the user has moved on, so this and the notification's "Show Candidates" are where it waits.
import * as vscode from 'vscode';
import { CommandId } from './commands';

/** What the browser holds, as the item says it; undefined when there is nothing to look at. */
export interface BrowsableSummary {
  readonly count: number;
  /** "sum.js:7" */
  readonly where: string;
}

export class CandidateStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('verifiedFix.candidates', vscode.StatusBarAlignment.Right, 101);

  constructor() {
    this.item.name = 'Verified Fix candidates';
    this.item.command = CommandId.ShowCandidates;
  }

  /** The item's text, or undefined when hidden (for the integration tests). */
  get text(): string | undefined {
    return this.shown ? this.item.text : undefined;
  }

  private shown = false;

  update(summary: BrowsableSummary | undefined): void {
    this.shown = summary !== undefined && summary.count > 0;
    if (!summary || !this.shown) {
      this.item.hide();
      return;
    }
    this.item.text = `$(pass) ${summary.count} verified fix${summary.count === 1 ? '' : 'es'}`;
    this.item.tooltip = `Verified Fix: ${summary.count} verified fix${summary.count === 1 ? '' : 'es'} for ${summary.where}. Click to look at them (Show Passing Candidates).`;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
