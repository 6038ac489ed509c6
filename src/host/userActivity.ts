// Whether the user has moved on since a request started: a list that opens by itself must never take keystrokes meant for
// something else, so it opens only while the editor the request came from is still active and untouched.
import * as vscode from 'vscode';

/** Watches the editors from a request's start to its end; `idle` says whether opening its list is safe. */
export class UserActivity implements vscode.Disposable {
  private active = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly document: vscode.TextDocument) {
    const moved = () => {
      this.active = true;
    };
    this.subscriptions = [
      // A selection the extension sets has no kind; keyboard, mouse and commands are the user.
      vscode.window.onDidChangeTextEditorSelection((e) => e.kind !== undefined && moved()),
      vscode.window.onDidChangeActiveTextEditor(moved),
      vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length > 0 && (e.document.uri.scheme === 'file' || e.document.uri.scheme === 'untitled') && moved()),
    ];
  }

  /** Nothing typed, clicked or switched since the start, and the request's editor still has the focus. */
  get idle(): boolean {
    return !this.active && vscode.window.activeTextEditor?.document === this.document;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
