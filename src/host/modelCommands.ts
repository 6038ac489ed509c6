// "Select Model" (chat models VS Code offers) and "Set API Key" (SecretStorage, never settings or logs).
import * as vscode from 'vscode';
import type { Log } from './log';
import { API_KEY_SECRET } from './providerFactory';
import { updateWorkspaceSetting } from './settings';
import { listChatModels } from './vscodeLmProvider';

/** Lists VS Code's chat models and writes the chosen one to `verifiedFix.model` (and the provider to vscode-lm). */
export async function selectModel(log: Log): Promise<string | undefined> {
  const models = await listChatModels();
  if (models.length === 0) {
    void log.warn(
      'No chat model is available in VS Code. Install and sign in to an extension that provides language models (such as GitHub Copilot Chat), ' +
        'or set "verifiedFix.provider" to "openai-compatible" with an endpoint such as Ollama.',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    models.map((m) => ({ label: m.name, description: m.settingValue, detail: `${m.maxInputTokens.toLocaleString()} input tokens`, value: m.settingValue })),
    { title: 'Verified Fix: model for "vscode-lm"', placeHolder: 'Choose the chat model that writes candidate fixes' },
  );
  if (!picked) return undefined;
  await updateWorkspaceSetting('model', picked.value);
  await updateWorkspaceSetting('provider', 'vscode-lm');
  void log.info(`Verified Fix will use ${picked.label} (${picked.value}).`);
  return picked.value;
}

/** Stores (or, with an empty entry, deletes) the openai-compatible API key in SecretStorage. */
export async function setApiKey(secrets: vscode.SecretStorage, log: Log): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: 'Verified Fix: API key for the openai-compatible endpoint',
    prompt: 'Stored in VS Code\'s secret storage, never in settings or logs. Leave empty to remove the stored key (local servers such as Ollama need none).',
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return;
  if (key.trim() === '') {
    await secrets.delete(API_KEY_SECRET);
    void log.info('The stored API key was removed.');
  } else {
    await secrets.store(API_KEY_SECRET, key.trim());
    void log.info('The API key is stored in VS Code\'s secret storage.');
  }
}
