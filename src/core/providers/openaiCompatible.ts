// The `openai-compatible` provider: candidates from any chat-completions server (Ollama, LM Studio, vLLM, llama.cpp, OpenAI).
import { parseAnswer } from './answerParser';
import type { Completion, CompletionChoice, CompletionSettings, LostCompletion } from './chatCompletions';
import { EndpointError, chatCompletionsUrl, requestCompletion } from './chatCompletions';
import { buildPrompt } from './prompt';
import type { CandidateProvider, ProviderRequest, ProviderSample } from '../contract/provider';
import { untilAborted } from './retryPolicy';
import { parallelSamples } from './sampleQueue';

/** How to reach the server and how hard to push it. */
export interface OpenAiCompatibleOptions {
  /** Base URL ending in `/v1`, e.g. `http://localhost:11434/v1` for Ollama. */
  readonly endpoint: string;
  readonly model: string;
  /** Bearer token; none for local servers. Never logged. */
  readonly apiKey?: string;
  /** Sampling temperature; default 0.8 because the samples must differ. */
  readonly temperature?: number;
  /** Requests in flight at once when samples are fetched one per request. */
  readonly maxConcurrentRequests: number;
  /** Per attempt, until the whole answer has arrived. */
  readonly requestTimeoutMs: number;
  /** Retries for 429, 5xx, timeouts and network errors; 400/401/403/404 are never retried. */
  readonly maxRetries: number;
  /** Stream answers as server-sent events (default false: one JSON answer per request). */
  readonly stream?: boolean;
  /**
   * Ask for all samples in one request with `n`: `true` always, `false` never, `'auto'` (default) tries it once
   * and falls back to parallel single requests when the server returns fewer choices (Ollama ignores `n`).
   */
  readonly useN?: boolean | 'auto';
  /** First backoff step in ms (default 1000); doubles per retry. */
  readonly retryBaseMs?: number;
  /** Longest single wait in ms, even if Retry-After asks for more (default 30000). */
  readonly maxRetryWaitMs?: number;
}

/** The API key for the CLI: `VERIFIED_FIX_API_KEY`, else `OPENAI_API_KEY`, else none (fine for local servers). */
export function resolveApiKey(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return env.VERIFIED_FIX_API_KEY?.trim() || env.OPENAI_API_KEY?.trim() || undefined;
}

/** Creates the provider; throws a UserError at once for an endpoint that is not an http(s) URL or an empty model. */
export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): CandidateProvider {
  chatCompletionsUrl(options.endpoint);
  if (!options.model.trim()) throw new EndpointError('No model is set: name one with verifiedFix.model or --model (e.g. qwen2.5-coder:7b).', undefined);
  const useN = options.useN ?? 'auto';
  // Learned once per provider: whether this server honours `n`. Undefined until the first request tells.
  let serverHonoursN: boolean | undefined = useN === true ? true : useN === false ? false : undefined;

  return {
    name: 'openai-compatible',
    // The prompt shows `request.repair`'s failed candidates: the engine may ask again after a round with no fix.
    repairs: true,
    async *generate(request: ProviderRequest): AsyncGenerator<ProviderSample> {
      const settings: CompletionSettings = {
        endpoint: options.endpoint,
        model: options.model,
        apiKey: options.apiKey,
        temperature: options.temperature ?? 0.8,
        stream: options.stream ?? false,
        requestTimeoutMs: options.requestTimeoutMs,
        maxRetries: options.maxRetries,
        retryBaseMs: options.retryBaseMs ?? 1000,
        maxRetryWaitMs: options.maxRetryWaitMs ?? 30_000,
        logger: request.logger,
      };
      // A baseline that failed to run is no reason not to ask: the prompt then goes without its output.
      const baseline = await untilAborted(request.baseline, request.signal);
      if (request.signal.aborted) return;
      const messages = buildPrompt({ ...request, baseline });
      const toSample = (choice: CompletionChoice, completion: Completion, share: number, of: number): ProviderSample => {
        const usage = {
          promptTokens: split(completion.promptTokens, share, of),
          completionTokens: split(completion.completionTokens, share, of),
          durationMs: completion.durationMs,
        };
        const parsed = parseAnswer(choice.content, { ...request, complete: choice.finishReason !== 'length' });
        if (parsed.ok) return { kind: 'candidate', text: parsed.text, usage };
        request.logger.info(`unusable answer: ${parsed.reason}`);
        return { kind: 'invalid', reason: parsed.reason, raw: choice.content.slice(0, 8000), usage };
      };

      let remaining = request.samples;
      if (remaining > 1 && serverHonoursN !== false) {
        let outcome: Completion | LostCompletion | undefined;
        try {
          outcome = await requestCompletion(messages, remaining, settings, request.signal);
        } catch (error) {
          if (request.signal.aborted) return;
          // Some servers reject `n` outright (HTTP 400/422); in auto mode single requests may still work.
          const rejectedN = error instanceof EndpointError && (error.status === 400 || error.status === 422);
          if (!(rejectedN && useN === 'auto' && serverHonoursN === undefined)) throw error;
          request.logger.info(`the server rejected n=${remaining}; asking with one request per sample`);
          serverHonoursN = false;
        }
        // Lost samples are reported once, by the front ends from the engine's `lost` events.
        if (outcome && 'lost' in outcome) {
          for (let i = 0; i < remaining; i++) yield { kind: 'lost', reason: outcome.lost, lostKind: outcome.kind };
          return;
        }
        if (outcome) {
          const choices = outcome.choices.slice(0, remaining);
          if (useN === 'auto') serverHonoursN = choices.length >= remaining;
          if (choices.length < remaining) {
            request.logger.info(`asked for n=${remaining}, got ${choices.length}; asking for the rest with one request per sample`);
          }
          for (const [i, choice] of choices.entries()) yield toSample(choice, outcome, i, choices.length);
          remaining -= choices.length;
        }
      }

      yield* parallelSamples(remaining, options.maxConcurrentRequests, request.signal, async (signal) => {
        const outcome = await requestCompletion(messages, undefined, settings, signal);
        if ('lost' in outcome) return { kind: 'lost', reason: outcome.lost, lostKind: outcome.kind };
        return toSample(outcome.choices[0], outcome, 0, 1);
      });
    },
  };
}

/**
 * Share `index` of `of` of a token count reported for a whole `n` request, so that the shares sum to the total
 * (the first shares take the remainder).
 */
function split(total: number | undefined, index: number, of: number): number | undefined {
  if (total === undefined) return undefined;
  return Math.floor(total / of) + (index < total % of ? 1 : 0);
}
