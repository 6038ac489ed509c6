// The `vscode-lm` provider: adapts VS Code's Language Model API (Copilot and other chat models) to the engine.
import * as vscode from 'vscode';
import { UserError } from '../core/base/errors';
import type { ChatModelLike, ModelSelector } from '../core/providers/chatModelProvider';
import { createChatModelProvider, modelSettingValue, parseModelSelector, withoutSystemRole } from '../core/providers/chatModelProvider';
import type { CandidateProvider } from '../core/contract/provider';

/** Settings the provider needs (from the typed settings snapshot). */
export interface VscodeLmOptions {
  /** `verifiedFix.model`: empty for any model, else `vendor/family[/id]` or a family. */
  readonly model: string;
  readonly maxConcurrentRequests: number;
  readonly requestTimeoutMs: number;
}

/** One chat model as the "Select Model" quick pick shows it. */
export interface ChatModelInfo {
  readonly id: string;
  readonly vendor: string;
  readonly family: string;
  readonly version: string;
  readonly name: string;
  readonly maxInputTokens: number;
  /** The `verifiedFix.model` value that selects exactly this model. */
  readonly settingValue: string;
}

/** Creates the provider; the model is looked up when a request starts, so a new model needs no reload. */
export function createVscodeLmProvider(options: VscodeLmOptions): CandidateProvider {
  return createChatModelProvider({
    name: 'vscode-lm',
    model: async () => adapt(await selectModel(options.model)),
    maxConcurrentRequests: options.maxConcurrentRequests,
    requestTimeoutMs: options.requestTimeoutMs,
    mapError: (error) => describeLanguageModelError(error, options.model),
  });
}

/** Every chat model VS Code offers right now, for the "Verified Fix: Select Model" command. */
export async function listChatModels(): Promise<ChatModelInfo[]> {
  const models = await vscode.lm.selectChatModels();
  return models.map((m) => ({
    id: m.id,
    vendor: m.vendor,
    family: m.family,
    version: m.version,
    name: m.name,
    maxInputTokens: m.maxInputTokens,
    settingValue: modelSettingValue(m),
  }));
}

/** The first model matching the setting; a single word is tried as a family, then as an id. */
async function selectModel(setting: string): Promise<vscode.LanguageModelChat> {
  const selector: ModelSelector = parseModelSelector(setting);
  let models = await vscode.lm.selectChatModels(selector);
  if (models.length === 0 && selector.family && !selector.vendor) models = await vscode.lm.selectChatModels({ id: selector.family });
  if (models.length > 0) return models[0];
  const available = await vscode.lm.selectChatModels();
  if (available.length === 0) {
    throw new UserError(
      'No chat model is available in VS Code. Install and sign in to an extension that provides language models ' +
        '(such as GitHub Copilot Chat), or set "verifiedFix.provider" to "openai-compatible" with an endpoint such as Ollama.',
    );
  }
  throw new UserError(
    `No chat model matches "verifiedFix.model": "${setting}". Run "Verified Fix: Select Model" to pick one of the ` +
      `${available.length} available (e.g. ${modelSettingValue(available[0])}).`,
  );
}

/** A CancellationToken that follows `signal`; dispose() stops listening, so a long run's signal does not collect listeners. */
function cancellationOf(signal: AbortSignal): { readonly token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const cancel = () => source.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener('abort', cancel);
      source.dispose();
    },
  };
}

/** Wraps a VS Code chat model in the engine's narrow interface (AbortSignal → CancellationToken). */
function adapt(model: vscode.LanguageModelChat): ChatModelLike {
  const label = `${model.vendor}/${model.family}`;
  return {
    label,
    async *sendRequest(messages, signal) {
      const cancellation = cancellationOf(signal);
      try {
        const chat = withoutSystemRole(messages).map((m) =>
          m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(m.content) : vscode.LanguageModelChatMessage.User(m.content),
        );
        const response = await model.sendRequest(
          chat,
          { justification: 'Verified Fix asks the model for candidate fixes of the selected code, which your tests then check.' },
          cancellation.token,
        );
        for await (const chunk of response.text) yield chunk;
      } finally {
        cancellation.dispose();
      }
    },
    countTokens: async (text, signal) => {
      const cancellation = cancellationOf(signal);
      try {
        return await model.countTokens(text, cancellation.token);
      } finally {
        cancellation.dispose();
      }
    },
  };
}

/**
 * Turns Language Model API errors into what the user can do: consent, quota and a vanished model end the request
 * (UserError); anything else loses just that sample (a reason).
 */
export function describeLanguageModelError(error: unknown, setting: string): UserError | string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof vscode.LanguageModelError ? error.code : undefined;
  if (code === vscode.LanguageModelError.NoPermissions.name) {
    return new UserError(
      'Verified Fix may not use this language model yet. Run the command again and choose "Allow" when VS Code asks, ' +
        'or grant access under Accounts > Manage Language Model Access.',
    );
  }
  if (code === vscode.LanguageModelError.Blocked.name || /quota|rate.?limit/i.test(message)) {
    return new UserError(
      `The language model refused the request: its quota or rate limit is used up (${message}). Wait and try again, ` +
        'pick another model with "Verified Fix: Select Model", or use an "openai-compatible" endpoint.',
    );
  }
  if (code === vscode.LanguageModelError.NotFound.name) {
    return new UserError(
      `The language model "${setting || 'default'}" is no longer available. Pick another with "Verified Fix: Select Model".`,
    );
  }
  return undefined;
}
