// Shared steps for the Verified Fix integration tests: the extension's API, the fixture file, settings, waiting.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FixResult } from '../../../src/core/contract/fixRequest';
import type { VerifiedFixApi } from '../../../src/host/testApi';

export const extensionId = 'verified-fix.verified-fix';

/** Activates the extension and returns what activate() returned. */
export async function verifiedFix(): Promise<VerifiedFixApi> {
  const extension = vscode.extensions.getExtension<VerifiedFixApi>(extensionId);
  assert.ok(extension, `${extensionId} is not loaded`);
  return extension.activate();
}

/** The fixture's buggy file, opened in an editor. */
export async function openSumJs(): Promise<vscode.TextEditor> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder is open');
  const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'sum.js'));
  return vscode.window.showTextDocument(document, { preview: false });
}

/** Selects line `line` (1-based) from its first character to its end. */
export function selectLine(editor: vscode.TextEditor, line: number): void {
  const range = editor.document.lineAt(line - 1).range;
  editor.selection = new vscode.Selection(range.start, range.end);
}

/** Writes `verifiedFix.*` workspace settings; undefined removes one. */
export async function setSettings(values: Record<string, unknown>): Promise<void> {
  const config = vscode.workspace.getConfiguration('verifiedFix');
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Workspace);
}

/**
 * Settings that keep a request short on a loaded 2-core machine; the strength check without a budget, which would end
 * it wherever the load happens to put it (the suites judge what the check shows).
 */
export const quickSettings = { samples: 2, k: 2, confirmRuns: 2, parallel: 2, strengthBudget: 0 };

/** Every setting the tests touch, for clean-up. */
export const touchedSettings = ['samples', 'k', 'confirmRuns', 'parallel', 'strengthBudget', 'testCommand', 'testTimeoutSeconds', 'totalTimeoutSeconds'];

export async function clearSettings(): Promise<void> {
  await setSettings(Object.fromEntries(touchedSettings.map((key) => [key, undefined])));
}

/** Polls `check` until it returns a value other than undefined/false, or fails naming `what`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs "Suggest Verified Fix" as the menu would, returning the command's result (the engine's FixResult). */
export function suggest(): Thenable<FixResult | undefined> {
  return vscode.commands.executeCommand('verifiedFix.suggest');
}
