// The one reader of `verifiedFix.*` configuration: a typed, validated, readonly snapshot and a change event.
import { availableParallelism } from 'node:os';
import * as vscode from 'vscode';
import { optionOfSetting } from '../core/request/options';
import type { SettingsReading } from './model/settingsSchema';
import { SECTION, validateSettings } from './model/settingsSchema';

export type { ProviderName, Settings, SettingsReading } from './model/settingsSchema';

/** Reads the settings for `scope` (a document, so folder settings apply); each request reads afresh. */
export function readSettings(scope?: vscode.Uri): SettingsReading {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  // Only values the user set: defaults live in validateSettings, so an unset k follows a smaller samples quietly
  // instead of being reported as larger than it. A machine-scoped option takes the user's value only, whatever a
  // workspace file says (VS Code ignores those too; this does not depend on it).
  const explicit = (key: string): unknown => {
    const values = config.inspect<unknown>(key);
    if (optionOfSetting(key)?.machine) return values?.globalValue;
    return values?.workspaceFolderValue ?? values?.workspaceValue ?? values?.globalValue;
  };
  return validateSettings(explicit, availableParallelism());
}

/** Fires when any `verifiedFix.*` setting changes (the next request reads the new values). */
export function onDidChangeSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration(SECTION)) listener();
  });
}

/** Writes one `verifiedFix.*` setting for the workspace (a command acting for the user, e.g. Select Model). */
export async function updateWorkspaceSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Workspace);
}
