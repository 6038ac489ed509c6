// Builds the candidate provider `verifiedFix.provider` names, with the API key from SecretStorage.
import type * as vscode from 'vscode';
import { createMutationProvider } from '../core/providers/mutationProvider';
import { createOpenAiCompatibleProvider } from '../core/providers/openaiCompatible';
import type { CandidateProvider } from '../core/providers/provider';
import type { Log } from './log';
import type { ProviderName, Settings } from './settings';
import { createVscodeLmProvider } from './vscodeLmProvider';

/** The SecretStorage key of the openai-compatible API key ("Verified Fix: Set API Key"). */
export const API_KEY_SECRET = 'verifiedFix.apiKey';

/** A model request may think for a while; the per-run test timeout is a different budget. */
const MODEL_REQUEST_TIMEOUT_MS = 120_000;

/** The request's providers: `verifiedFix.provider`, and `verifiedFix.fallbackProvider` when one is set. */
export async function createProviders(settings: Settings, secrets: vscode.SecretStorage, log: Log): Promise<{ provider: CandidateProvider; fallbackProvider?: CandidateProvider }> {
  const provider = await createProvider(settings.provider, settings, secrets, log);
  if (!settings.fallbackProvider) return { provider };
  return { provider, fallbackProvider: await createProvider(settings.fallbackProvider, settings, secrets, log) };
}

/** A fresh provider per request, so a changed setting or key applies to the next request. */
async function createProvider(name: ProviderName, settings: Settings, secrets: vscode.SecretStorage, log: Log): Promise<CandidateProvider> {
  switch (name) {
    case 'mutation':
      return createMutationProvider({
        onStats: (s) =>
          log.logger.info(
            s.supported
              ? `mutation: ${s.candidates} candidate(s) from ${s.generated} edits (${s.unparsable} unparsable, ${s.duplicates} duplicates) in ${s.durationMs.toFixed(0)} ms`
              : 'mutation: no grammar for this language, so no candidates',
          ),
      });
    case 'openai-compatible':
      return createOpenAiCompatibleProvider({
        endpoint: settings.endpoint,
        model: settings.model,
        apiKey: (await secrets.get(API_KEY_SECRET)) || undefined,
        temperature: settings.temperature,
        maxConcurrentRequests: settings.maxConcurrentRequests,
        requestTimeoutMs: MODEL_REQUEST_TIMEOUT_MS,
        maxRetries: 3,
      });
    case 'vscode-lm':
      return createVscodeLmProvider({
        model: settings.model,
        maxConcurrentRequests: settings.maxConcurrentRequests,
        requestTimeoutMs: MODEL_REQUEST_TIMEOUT_MS,
      });
    default: {
      const unknown: never = name;
      throw new Error(`unknown provider ${String(unknown)}`);
    }
  }
}
