// The editor's side of the provider registry: the API key from SecretStorage, notices to the log, and `vscode-lm`.
import type * as vscode from 'vscode';
import type { ProviderEntries, ProviderEntry, Providers } from '../core/providers/registry';
import { CORE_PROVIDERS, createProviders as createFromRegistry } from '../core/providers/registry';
import type { Log } from './log';
import type { Settings } from './settings';
import { createVscodeLmProvider } from './vscodeLmProvider';

/** The SecretStorage key of the openai-compatible API key ("Verified Fix: Set API Key"). */
export const API_KEY_SECRET = 'verifiedFix.apiKey';

/** The one provider only the editor can build: it needs VS Code's Language Model API. */
const vscodeLm: ProviderEntry = {
  reads: ['model', 'maxConcurrentRequests', 'requestTimeoutMs', 'repairRounds'],
  create: async (values) => ({
    provider: createVscodeLmProvider({ model: values.model, maxConcurrentRequests: values.maxConcurrentRequests, requestTimeoutMs: values.requestTimeoutMs }),
  }),
};

const EDITOR_PROVIDERS: ProviderEntries = { ...CORE_PROVIDERS, 'vscode-lm': vscodeLm };

/** The request's providers (`verifiedFix.provider`, and `verifiedFix.fallbackProvider` unless none), fresh per request. */
export function createProviders(settings: Settings, secrets: vscode.SecretStorage, log: Log): Promise<Providers> {
  const env = { apiKey: async () => (await secrets.get(API_KEY_SECRET)) || undefined, notice: (line: string) => log.logger.info(line) };
  return createFromRegistry(settings, env, EDITOR_PROVIDERS);
}
