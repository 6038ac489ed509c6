// "Fix Failing Tests" and "this failing test": the workspace's tests run once under a cancellable progress, the engine
// ranks the functions the failing tests run, and the request starts on the likeliest (the next ones offered after).
import { join } from 'node:path';
import * as vscode from 'vscode';
import { localiseRequest } from '../core/engine/workspaceLocalisation';
import type { RankedFunction } from '../core/localisation/rankFunctions';
import type { Log } from './log';
import { readSettings } from './settings';

/** What a localised request passes: the failing tests to start from (all when absent) and the folder they are in. */
export interface LocaliseTarget {
  readonly kind: 'localise';
  readonly testNames?: readonly string[];
  /** A file of the workspace folder to run (the test file); default: the first folder. */
  readonly uri?: vscode.Uri;
}

export function isLocaliseTarget(value: unknown): value is LocaliseTarget {
  return typeof value === 'object' && value !== null && (value as LocaliseTarget).kind === 'localise';
}

/** A function's lines, in the shape "Run Again" passes (rerunTarget.ts), kept structural so neither file imports the other. */
interface FunctionTarget {
  readonly uri: vscode.Uri;
  readonly startLine: number;
  readonly endLine: number;
}

/** The function a request starts on, the sentence saying why, and the ones to try after it. */
export interface Localised {
  readonly target: FunctionTarget;
  readonly implicit: string;
  readonly next: readonly FunctionTarget[];
  readonly nextLabels: readonly string[];
}

const targetOf = (folder: vscode.WorkspaceFolder, f: RankedFunction): FunctionTarget => ({ uri: vscode.Uri.file(join(folder.uri.fsPath, f.relativePath)), startLine: f.startLine, endLine: f.endLine });
const labelOf = (f: RankedFunction) => `${f.relativePath}:${f.name} (score ${f.score.toFixed(2)})`;

/** Runs the tests and localises; undefined when the user was told why there is nothing to try (or cancelled). */
export async function localise(target: LocaliseTarget, log: Log): Promise<Localised | undefined> {
  const folder = (target.uri && vscode.workspace.getWorkspaceFolder(target.uri)) ?? vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void log.info('Open the project folder first: "Fix Failing Tests" runs its tests.');
    return undefined;
  }
  const { settings } = readSettings(folder.uri);
  const names = target.testNames?.length ? target.testNames : undefined;
  const title = names ? `Verified Fix: running \`${names.join('`, `')}\` to find the code it runs…` : 'Verified Fix: running the tests to find the code the failing ones run…';
  const found = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => {
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    return localiseRequest({ workspace: folder.uri.fsPath, ...settings.request, ...(names ? { testNames: names } : {}), signal: controller.signal, logger: log.logger });
  });
  for (const line of found.explanations) log.logger.info(line);
  const [first, ...rest] = found.ranked.slice(0, 3);
  if (!first) {
    void log.info(`The failing tests point at no function of the workspace's source files (${found.evidence}). Open the code they test, select it and run "Suggest Verified Fix".`);
    return undefined;
  }
  const why = found.explanations[0] ?? `ranked by ${found.evidence}`;
  return {
    target: targetOf(folder, first),
    implicit: `${why[0].toUpperCase()}${why.slice(1)}: trying ${first.relativePath}:${first.name} (lines ${first.startLine}–${first.endLine}).`,
    next: rest.map((f) => targetOf(folder, f)),
    nextLabels: rest.map(labelOf),
  };
}
