// The statistics panel: a webview view with a strict CSP, assets from media/, a ready handshake and typed messages.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { HostMessage, PanelMessage, ProtectionsView, RunningView, StatsSnapshot } from '../shared/protocol';
import { isPanelMessage } from '../shared/protocol';
import type { Log } from './log';

/** What the panel's rows ask the host to do (Export and Reset are the view's title-bar actions). */
export interface PanelActions {
  openTask(taskId: string): unknown;
  /** What protects the test runs, for the Protections line; asked when the panel first shows. */
  protections(): Promise<ProtectionsView>;
  /** The Protections section's link: the security page. */
  openSecurity(): unknown;
}

/** How many posted messages the test API keeps. */
const KEPT_MESSAGES = 20;

/** The `verifiedFix.statsView` webview view provider. */
export class StatsView implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'verifiedFix.statsView';
  private view: vscode.WebviewView | undefined;
  /** Set when the current webview said `ready`; a reloaded webview (hidden, then shown) says it again. */
  private ready = false;
  private progress: { text: string; running: RunningView } | undefined;
  private protections: ProtectionsView | undefined;
  private readonly posted: HostMessage[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly snapshot: () => StatsSnapshot,
    private readonly actions: PanelActions,
    private readonly log: Log,
  ) {}

  /** Messages posted to the webview, oldest first (for the integration tests). */
  get messages(): readonly HostMessage[] {
    return this.posted;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    view.webview.html = this.html(view.webview, media);
    // A view is resolved again after it was closed and reopened: drop the old view's listeners with it.
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.subscriptions.push(
      view.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      view.onDidDispose(() => {
        if (this.view !== view) return;
        this.view = undefined;
        this.ready = false;
      }),
    );
  }

  /** Sends the current snapshot, if the webview is listening. */
  refresh(): void {
    if (this.ready) this.post({ type: 'snapshot', snapshot: this.snapshot() });
  }

  /** A request's progress line and table row (undefined: none running); the finished tasks stay drawn as they are. */
  setProgress(progress: { text: string; running: RunningView } | undefined): void {
    this.progress = progress;
    if (this.ready) this.postProgress();
  }

  private postProgress(): void {
    this.post({ type: 'progress', text: this.progress?.text, ...(this.progress ? { running: this.progress.running } : {}) });
  }

  /** The protections a request just reported (they may differ from what the panel showed). */
  setProtections(protections: ProtectionsView): void {
    this.protections = protections;
    if (this.ready) this.post({ type: 'protections', protections });
  }

  private receive(message: unknown): void {
    if (!isPanelMessage(message)) {
      this.log.logger.warn(`panel sent an unknown message: ${JSON.stringify(message)}`);
      return;
    }
    const m: PanelMessage = message;
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.post({ type: 'snapshot', snapshot: this.snapshot() });
        this.postProgress();
        if (this.protections) this.post({ type: 'protections', protections: this.protections });
        else {
          this.actions.protections().then(
            (found) => this.protections ?? this.setProtections(found),
            (error: unknown) => this.log.logger.warn(`could not tell what protects the test runs: ${error instanceof Error ? error.message : String(error)}`),
          );
        }
        break;
      case 'openTask':
        void this.actions.openTask(m.taskId);
        break;
      case 'openSecurity':
        void this.actions.openSecurity();
        break;
      default: {
        const unknown: never = m;
        this.log.logger.warn(`unhandled panel message ${JSON.stringify(unknown)}`);
      }
    }
  }

  private post(message: HostMessage): void {
    if (!this.view) return;
    this.posted.push(message);
    if (this.posted.length > KEPT_MESSAGES) this.posted.shift();
    void this.view.webview.postMessage(message);
  }

  private html(webview: vscode.Webview, media: vscode.Uri): string {
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(media, 'panel.css'));
    const csp = `default-src 'none'; style-src ${webview.cspSource}; img-src ${webview.cspSource}; script-src 'nonce-${nonce}';`;
    return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${style}">
  <title>Verified Fix statistics</title>
</head>
<body>
  <p id="progress" class="progress" hidden></p>
  <section id="summary" aria-label="Session statistics"><p class="muted">Loading…</p></section>
  <section id="chart" aria-label="pass@k and pass^k against k"></section>
  <section id="grid" aria-label="Samples of each task"></section>
  <section id="tasks" aria-label="Tasks"></section>
  <section id="cost" aria-label="Cost per verified fix"></section>
  <section id="protections" aria-label="What protects the test runs"></section>
  <script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
