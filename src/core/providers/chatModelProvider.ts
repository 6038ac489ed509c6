// A provider over any chat model that streams text (VS Code's Language Model API through a narrow interface).
import { UserError } from '../base/errors';
import { parseAnswer } from './answerParser';
import type { ChatMessage } from './prompt';
import { buildPrompt } from './prompt';
import type { CandidateProvider, LostKind, ProviderRequest, ProviderSample } from '../contract/provider';
import { deadline, untilAborted } from './retryPolicy';
import { parallelSamples } from './sampleQueue';

/** The little the provider needs from a chat model; the VS Code adapter implements it over `LanguageModelChat`. */
export interface ChatModelLike {
  /** For logs and messages, e.g. `copilot/gpt-4o`. */
  readonly label: string;
  /** Streams the answer's text; must stop (throw or end) soon after `signal` aborts. */
  sendRequest(messages: readonly ChatMessage[], signal: AbortSignal): AsyncIterable<string>;
  /** Tokens in a text by the model's own tokenizer, where it has one; for the usage figures only. */
  countTokens?(text: string, signal: AbortSignal): Promise<number>;
}

/** What the provider does with an error from the model: end the request (UserError) or lose the sample (a reason). */
export type ErrorMapper = (error: unknown) => UserError | string | undefined;

export interface ChatModelProviderOptions {
  /** Provider name in logs and results. */
  readonly name: string;
  /** Resolved when generation starts, so a missing model is reported then (a UserError naming what to do). */
  readonly model: () => Promise<ChatModelLike>;
  /** Requests in flight at once; such APIs have no `n`, so each sample is one request. */
  readonly maxConcurrentRequests: number;
  /** Per request, until the whole answer has arrived. */
  readonly requestTimeoutMs: number;
  /** Maps the model's errors; unmapped ones lose the sample with their message. */
  readonly mapError?: ErrorMapper;
}

/** Creates a provider asking `model` for one candidate per request, up to `maxConcurrentRequests` at once. */
export function createChatModelProvider(options: ChatModelProviderOptions): CandidateProvider {
  return {
    name: options.name,
    // The prompt shows `request.repair`'s failed candidates: the engine may ask again after a round with no fix.
    repairs: true,
    async *generate(request: ProviderRequest): AsyncGenerator<ProviderSample> {
      const model = await options.model();
      const baseline = await untilAborted(request.baseline, request.signal);
      if (request.signal.aborted) return;
      const messages = buildPrompt({ ...request, baseline });
      // Counted once: every sample sends the same prompt.
      const promptTokens = await countTokens(model, messages.map((m) => m.content).join('\n'), request.signal);
      const round = request.repair ? ` (round ${request.repair.round}, after ${request.repair.failed.length} failed candidates)` : '';
      request.logger.trace(`asking ${model.label} for ${request.samples} samples${round}, ${options.maxConcurrentRequests} at a time`);

      yield* parallelSamples(request.samples, options.maxConcurrentRequests, request.signal, async (signal) => {
        const began = Date.now();
        const timeout = deadline(options.requestTimeoutMs);
        const both = AbortSignal.any([signal, timeout.signal]);
        let answer = '';
        try {
          for await (const chunk of model.sendRequest(messages, both)) {
            answer += chunk;
            both.throwIfAborted();
          }
          both.throwIfAborted();
        } catch (error) {
          if (signal.aborted) throw error;
          if (timeout.signal.aborted) return lost(`no complete answer from ${model.label} within ${options.requestTimeoutMs} ms`, 'timeout');
          const mapped = options.mapError?.(error);
          if (mapped instanceof UserError) throw mapped;
          return lost(mapped ?? `${model.label} failed: ${(error as Error)?.message ?? String(error)}`, 'other');
        } finally {
          timeout.clear();
        }
        const usage = {
          promptTokens,
          completionTokens: await countTokens(model, answer, signal),
          durationMs: Date.now() - began,
        };
        const parsed = parseAnswer(answer, request);
        if (parsed.ok) return { kind: 'candidate', text: parsed.text, usage };
        request.logger.info(`unusable answer from ${model.label}: ${parsed.reason}`);
        return { kind: 'invalid', reason: parsed.reason, raw: answer.slice(0, 8000), usage };
      });
    },
  };
}

/** A lost sample; not logged here: the front ends report it once, from the engine's `lost` event. */
function lost(reason: string, lostKind: LostKind): ProviderSample {
  return { kind: 'lost', reason, lostKind };
}

async function countTokens(model: ChatModelLike, text: string, signal: AbortSignal): Promise<number | undefined> {
  if (!model.countTokens || signal.aborted) return undefined;
  // Usage is nice to have: a tokenizer that fails must not cost the sample.
  return model.countTokens(text, signal).catch(() => undefined);
}

/**
 * Chat APIs without a system role (VS Code's) get the system text at the head of the first user message, so
 * nothing of the prompt is lost.
 */
export function withoutSystemRole(messages: readonly ChatMessage[]): ChatMessage[] {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  const rest = messages.filter((m) => m.role !== 'system');
  if (system.length === 0) return [...rest];
  const first = rest.findIndex((m) => m.role === 'user');
  if (first === -1) return [{ role: 'user', content: system.join('\n\n') }, ...rest];
  return rest.map((m, i) => (i === first ? { role: 'user', content: `${system.join('\n\n')}\n\n${m.content}` } : m));
}

/** Which chat models a `verifiedFix.model` value asks for. */
export interface ModelSelector {
  readonly vendor?: string;
  readonly family?: string;
  readonly id?: string;
}

/**
 * Reads the model setting for `vscode-lm`: empty = any model; `vendor/family` or `vendor/family/id`; a single
 * word is a family (`gpt-4o`) and, failing that, an id (the adapter tries both).
 */
export function parseModelSelector(setting: string): ModelSelector {
  const parts = setting
    .trim()
    .split('/')
    .map((p) => p.trim());
  if (parts.length === 1) return parts[0] ? { family: parts[0] } : {};
  const [vendor, family, ...id] = parts;
  return {
    ...(vendor ? { vendor } : {}),
    ...(family ? { family } : {}),
    ...(id.join('/') ? { id: id.join('/') } : {}),
  };
}

/** The setting value that selects exactly this model (what "Select Model" writes). */
export function modelSettingValue(model: { readonly vendor: string; readonly family: string; readonly id: string }): string {
  return `${model.vendor}/${model.family}/${model.id}`;
}
