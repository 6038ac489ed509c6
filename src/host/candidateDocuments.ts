// Read-only virtual documents for candidates (and reports) under one URI scheme, owned by the run that made them.
import * as vscode from 'vscode';

/** The scheme of every candidate document; package.json's editor/title menu keys Apply and Next on it. */
export const CANDIDATE_SCHEME = 'verified-fix-candidate';

/** Serves texts registered by runs; a run's texts go when the run is disposed. */
export class CandidateDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly byRun = new Map<string, Set<string>>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /**
   * Registers `text` as `/{runId}/{name}/{relativePath}`: the file's own name last, so the editor picks its
   * language and the diff title reads naturally.
   */
  add(runId: string, name: string, relativePath: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: CANDIDATE_SCHEME, path: `/${runId}/${name}/${relativePath.replace(/\\/g, '/')}` });
    const key = uri.toString();
    this.texts.set(key, text);
    const owned = this.byRun.get(runId) ?? new Set<string>();
    owned.add(key);
    this.byRun.set(runId, owned);
    this.changed.fire(uri);
    return uri;
  }

  /** The run and name a candidate URI was registered under, or undefined for any other URI. */
  static parse(uri: vscode.Uri): { runId: string; name: string } | undefined {
    if (uri.scheme !== CANDIDATE_SCHEME) return undefined;
    const [, runId, name] = uri.path.split('/');
    return runId && name ? { runId, name } : undefined;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    // A closed run's tab may still be open after a reload; say why it is empty rather than show nothing.
    return this.texts.get(uri.toString()) ?? 'This candidate is no longer available: run "Suggest Verified Fix" again.\n';
  }

  /** Forgets every text of `runId`. */
  clear(runId: string): void {
    for (const key of this.byRun.get(runId) ?? []) {
      this.texts.delete(key);
      this.changed.fire(vscode.Uri.parse(key));
    }
    this.byRun.delete(runId);
  }

  dispose(): void {
    this.texts.clear();
    this.byRun.clear();
    this.changed.dispose();
  }
}
