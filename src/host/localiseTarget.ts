// "Fix Failing Tests" and "this failing test": the workspace's tests run once under a cancellable progress, the engine
// ranks the functions the failing tests run, and the request starts on the likeliest (the next ones offered after).
import { join } from 'node:path';
import * as vscode from 'vscode';
import { localiseRequest } from '../core/engine/workspaceLocalisation';
import { DEFAULT_MAX_FUNCTIONS } from '../core/engine/workspaceFix';
import type { RankedFunction } from '../core/localisation/rankFunctions';
import type { Log } from './log';
import type { LocalisedTry, RankedTry } from './model/localisedTask';
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
interface FunctionLines {
  readonly uri: vscode.Uri;
  readonly startLine: number;
  readonly endLine: number;
}

/** A ranked function with its place: what a localised try reopens. */
export type RankedPlace = FunctionLines & RankedTry;

/** A localised try's lines, and where the flow is (the functions ranked, this one's index, the samples left). */
export interface FunctionTarget extends FunctionLines {
  readonly localised: LocalisedTry<RankedPlace>;
}

/** The localised try a command argument carries ("Try …" passes the next one), if any. */
export function localisedTryOf(value: unknown): LocalisedTry<RankedPlace> | undefined {
  const plan = (value as Partial<FunctionTarget> | undefined)?.localised;
  return typeof plan === 'object' && plan !== null && Array.isArray(plan.functions) && Number.isInteger(plan.index) && plan.functions[plan.index] !== undefined ? plan : undefined;
}

/** The target of a localised try: the function at the plan's index. */
export function targetOfTry(plan: LocalisedTry<RankedPlace>): FunctionTarget {
  const { uri, startLine, endLine } = plan.functions[plan.index];
  return { uri, startLine, endLine, localised: plan };
}

/** The function a request starts on and the sentence saying why. */
export interface Localised {
  readonly target: FunctionTarget;
  readonly implicit: string;
}

const placeOf = (folder: vscode.WorkspaceFolder, f: RankedFunction): RankedPlace => ({
  uri: vscode.Uri.file(join(folder.uri.fsPath, f.relativePath)), startLine: f.startLine, endLine: f.endLine, relativePath: f.relativePath, name: f.name, score: f.score,
});
/** `src/range.js:clamp (score 0.40)` */
export const labelOf = (f: RankedTry) => `${f.relativePath}:${f.name} (score ${f.score.toFixed(2)})`;

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
  const ranked = found.ranked.slice(0, DEFAULT_MAX_FUNCTIONS);
  const first = ranked[0];
  if (!first) {
    void log.info(`The failing tests point at no function of the workspace's source files (${found.evidence}). Open the code they test, select it and run "Suggest Verified Fix".`);
    return undefined;
  }
  const why = found.explanations[0] ?? `ranked by ${found.evidence}`;
  const plan: LocalisedTry<RankedPlace> = { functions: ranked.map((f) => placeOf(folder, f)), failingTests: found.failingTests, index: 0, remaining: settings.samples };
  return {
    target: targetOfTry(plan),
    implicit: `${why[0].toUpperCase()}${why.slice(1)}: trying ${first.relativePath}:${first.name} (lines ${first.startLine}–${first.endLine}).`,
  };
}
