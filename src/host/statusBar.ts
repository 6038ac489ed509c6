// The status bar item: "$(beaker) pass@1 34% · pass@5 71%", a spinner during a run; a click opens the panel.
import * as vscode from 'vscode';
import type { StatsSnapshot } from '../shared/protocol';
import { CommandId } from './commands';
import { statusText, statusTooltip } from './model/sessionSnapshot';
import type { RunProgress } from './progressReporter';

/**
 * Hidden until the session has a task or a request runs: before that there is no number to show, and the
 * activity bar's Verified Fix icon already leads to the panel. The extension activates after startup (so a
 * reloaded window shows its saved numbers at once), so an item saying only "Verified Fix" would be clutter in
 * every workspace, including those where nobody uses it.
 */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('verifiedFix.status', vscode.StatusBarAlignment.Right, 100);
  private snapshot: StatsSnapshot | undefined;
  private progress: RunProgress | undefined;
  private shown = false;

  constructor() {
    this.item.name = 'Verified Fix';
    this.item.command = CommandId.ShowPanel;
  }

  /** The text as shown, for the integration tests. */
  get text(): string {
    return this.item.text;
  }

  get visible(): boolean {
    return this.shown;
  }

  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  /** Shows the session's numbers (unless a request is running, which shows its progress). */
  update(snapshot: StatsSnapshot): void {
    this.snapshot = snapshot;
    this.render();
  }

  /** A request's progress, or undefined when it ended. */
  setProgress(progress: RunProgress | undefined): void {
    this.progress = progress;
    this.render();
  }

  private render(): void {
    if (this.progress !== undefined) {
      this.item.text = `$(sync~spin) Verified Fix ${this.progress.tested}/${this.progress.total}`;
      this.item.tooltip = `Verified Fix: ${this.progress.text}\nClick to open the statistics panel.`;
      this.setVisible(true);
      return;
    }
    if (!this.snapshot || this.snapshot.tasks === 0) {
      this.setVisible(false);
      return;
    }
    this.item.text = statusText(this.snapshot);
    this.item.tooltip = statusTooltip(this.snapshot);
    this.setVisible(true);
  }

  private setVisible(visible: boolean): void {
    this.shown = visible;
    if (visible) this.item.show();
    else this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
