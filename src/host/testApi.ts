// What activate() returns: read-only views of the extension's state, for the integration tests (and other extensions).
import type * as vscode from 'vscode';
import type { FixResult } from '../core/contract/fixRequest';
import type { HostMessage, StatsSnapshot } from '../shared/protocol';
import type { StoredTask } from './sessionStore';

/** Observations only: everything the user can do goes through the contributed commands. */
export interface VerifiedFixApi {
  /** The last request's full result, if any ran in this window. */
  lastResult(): FixResult | undefined;
  /** The status bar item's text and tooltip as shown (the text is empty while it is hidden). */
  statusBar(): { readonly text: string; readonly tooltip: string; readonly visible: boolean };
  /** The "$(pass) 2 verified fixes" status bar item's text, undefined while hidden. */
  candidateStatus(): string | undefined;
  /** The session's numbers for the configured k, as the panel and the status bar get them. */
  snapshot(): StatsSnapshot;
  sessionTasks(): readonly StoredTask[];
  /** Messages posted to the statistics panel, oldest first. */
  panelMessages(): readonly HostMessage[];
  /** Notifications shown to the user, oldest first. */
  shownMessages(): readonly string[];
  /** Problems found in the settings by the last request. */
  settingsProblems(): readonly string[];
  /** The candidate document of the current (or last shown) diff. */
  currentCandidate(): vscode.Uri | undefined;
  /** Why the saved session was reset at activation, if it was. */
  sessionLoadProblem(): string | undefined;
  /** How long activate() took, in milliseconds (the bundle's load is VS Code's to measure). */
  activationMs(): number;
  /** Lines (1-based) of a file that the latest failing test run's stack trace points at (the Code Action's lines). */
  failureLines(uri: vscode.Uri): readonly number[];
}
