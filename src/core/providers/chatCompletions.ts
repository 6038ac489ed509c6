// One OpenAI-style `POST /chat/completions` call, streaming or not, with timeouts, retries and clear errors.
import { UserError } from '../base/errors';
import type { Logger } from '../base/logger';
import type { ChatMessage } from './prompt';
import type { LostKind } from '../contract/provider';
import { backoffMs, deadline, isRetryableStatus, retryAfterMs, sleep } from './retryPolicy';
import { sseData } from './sse';

/** Connection and retry settings for one endpoint. */
export interface CompletionSettings {
  /** Base URL such as `http://localhost:11434/v1`; `/chat/completions` is appended. */
  readonly endpoint: string;
  readonly model: string;
  /** Sent as `Authorization: Bearer …`; never logged. */
  readonly apiKey?: string;
  readonly temperature: number;
  readonly stream: boolean;
  /** Per attempt, from sending the request to the end of the answer. */
  readonly requestTimeoutMs: number;
  /** Retries after the first attempt, for 429, 5xx, timeouts and network errors. */
  readonly maxRetries: number;
  /** First backoff step; doubles per retry. */
  readonly retryBaseMs: number;
  /** No single wait is longer than this, whatever Retry-After says. */
  readonly maxRetryWaitMs: number;
  readonly logger: Logger;
}

/** One answer among the `n` the server returned. */
export interface CompletionChoice {
  readonly content: string;
  /** `stop`, `length` (cut off at max tokens), … as the server reports it. */
  readonly finishReason?: string;
}

/** A successful call: its choices in index order, token usage when reported, and wall time including retries. */
export interface Completion {
  readonly choices: readonly CompletionChoice[];
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  readonly durationMs: number;
}

/** A call that got no answer after its retries (a lost sample), with why. */
export interface LostCompletion {
  readonly lost: string;
  readonly kind: LostKind;
}

/** What a failed HTTP status says about the sample, for the front ends' advice. */
function lostKindOf(status: number): LostKind {
  if (status === 429) return 'rateLimited';
  return status >= 500 ? 'server' : 'rejected';
}

/** A configuration error the user must fix; `status` lets a caller retry differently (e.g. without `n`). */
export class EndpointError extends UserError {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

/** `{endpoint}/chat/completions`, accepting an endpoint given with or without that suffix. */
export function chatCompletionsUrl(endpoint: string): string {
  const trimmed = endpoint.trim().replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new EndpointError(`The endpoint "${endpoint}" is not a URL. Use one like http://localhost:11434/v1 (verifiedFix.endpoint, --endpoint).`, undefined);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EndpointError(`The endpoint "${endpoint}" must start with http:// or https:// (verifiedFix.endpoint, --endpoint).`, undefined);
  }
  return trimmed.endsWith('/chat/completions') ? trimmed : `${trimmed}/chat/completions`;
}

/**
 * Sends one chat-completions request asking for `n` choices (omitted when undefined). Returns the completion,
 * or `{ lost }` when retries ran out; throws an EndpointError for 400/401/403/404/422 and for an endpoint that
 * refuses connections, and the signal's reason when it aborts.
 */
export async function requestCompletion(
  messages: readonly ChatMessage[],
  n: number | undefined,
  settings: CompletionSettings,
  signal: AbortSignal,
): Promise<Completion | LostCompletion> {
  const url = chatCompletionsUrl(settings.endpoint);
  const body = JSON.stringify({
    model: settings.model,
    messages,
    temperature: settings.temperature,
    ...(n !== undefined ? { n } : {}),
    stream: settings.stream,
    // Without this, streaming servers do not report token counts.
    ...(settings.stream ? { stream_options: { include_usage: true } } : {}),
  });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: settings.stream ? 'text/event-stream' : 'application/json' };
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  const redact = (text: string) => (settings.apiKey ? text.split(settings.apiKey).join('[redacted]') : text);
  const began = Date.now();

  for (let attempt = 0; ; attempt++) {
    signal.throwIfAborted();
    const timeout = deadline(settings.requestTimeoutMs);
    const both = AbortSignal.any([signal, timeout.signal]);
    settings.logger.trace(
      `POST ${url} model=${settings.model} n=${n ?? 1} stream=${settings.stream} attempt=${attempt + 1} ` +
        `authorization=${settings.apiKey ? 'Bearer [redacted]' : 'none'} bytes=${body.length}`,
    );
    let problem: string;
    let kind: LostKind;
    let serverWaitMs: number | undefined;
    let refused = false;
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: both });
      if (response.ok) {
        const parsed = await readCompletion(response, settings.stream, url);
        return { ...parsed, durationMs: Date.now() - began };
      }
      const detail = redact(await errorDetail(response));
      const fatal = fatalMessage(response.status, detail, settings, url);
      if (fatal) throw new EndpointError(fatal, response.status);
      problem = `HTTP ${response.status}${detail ? `: ${detail}` : ''}`;
      kind = lostKindOf(response.status);
      if (!isRetryableStatus(response.status)) return { lost: problem, kind };
      serverWaitMs = retryAfterMs(response.headers);
    } catch (error) {
      if (error instanceof UserError) throw error;
      if (signal.aborted) throw signal.reason;
      // A malformed answer would most likely come back malformed again: lose the sample, do not retry.
      if (error instanceof BadAnswer) return { lost: redact(error.message), kind: 'other' };
      if (timeout.signal.aborted) {
        problem = `no complete answer within ${settings.requestTimeoutMs} ms`;
        kind = 'timeout';
      } else {
        kind = 'unreachable';
        const code = networkCode(error);
        refused = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
        problem = redact(`cannot reach ${url}: ${code ?? (error as Error).message}`);
      }
    } finally {
      timeout.clear();
    }
    if (attempt >= settings.maxRetries) {
      if (refused) {
        throw new EndpointError(
          `Cannot connect to ${url} (${problem.replace(/^.*: /, '')}). Is the server running (for Ollama: \`ollama serve\`), ` +
            'and is the endpoint right (verifiedFix.endpoint, --endpoint)?',
          undefined,
        );
      }
      return { lost: attempt > 0 ? `${problem} (gave up after ${attempt + 1} attempts)` : problem, kind };
    }
    const wait = backoffMs(attempt, { baseMs: settings.retryBaseMs, capMs: settings.maxRetryWaitMs, serverMs: serverWaitMs });
    settings.logger.info(`${problem}; retrying in ${Math.round(wait)} ms (retry ${attempt + 1} of ${settings.maxRetries})`);
    await sleep(wait, signal);
  }
}

/** The message for errors that retrying cannot fix, naming what to change; undefined for the others. */
function fatalMessage(status: number, detail: string, settings: CompletionSettings, url: string): string | undefined {
  const said = detail ? ` The server said: ${detail}` : '';
  switch (status) {
    case 401:
      return (
        `The endpoint ${url} rejected the API key (HTTP 401). ${settings.apiKey ? 'Check the key' : 'It needs a key'}: ` +
        `run "Verified Fix: Set API Key" in VS Code, or set VERIFIED_FIX_API_KEY (or OPENAI_API_KEY) for the CLI.${said}`
      );
    case 403:
      return `The endpoint ${url} refused access (HTTP 403): the API key has no access to model "${settings.model}" or this endpoint.${said}`;
    case 404:
      return /model/i.test(detail)
        ? `Model "${settings.model}" was not found at ${url} (HTTP 404). Check the model name (verifiedFix.model, --model); ` +
            `for Ollama, pull it first (\`ollama pull ${settings.model}\`).${said}`
        : `Nothing answers at ${url} (HTTP 404). Check the endpoint (verifiedFix.endpoint, --endpoint): ` +
            `it is the base URL ending in /v1, such as http://localhost:11434/v1.${said}`;
    case 400:
    case 422:
      return `The endpoint ${url} rejected the request (HTTP ${status}). Check the model (verifiedFix.model, --model) and the temperature.${said}`;
    default:
      return undefined;
  }
}

/** A short, readable reason from an error body: OpenAI's `error.message`, else the start of the text. */
async function errorDetail(response: Response): Promise<string> {
  const text = (await response.text().catch(() => '')).trim();
  let message = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const candidate = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message);
    if (typeof candidate === 'string') message = candidate;
  } catch {
    // not JSON: keep the text
  }
  message = message.replace(/\s+/g, ' ');
  return message.length > 300 ? `${message.slice(0, 297)}...` : message;
}

/** The server answered 2xx but not in the chat-completions shape. */
class BadAnswer extends Error {}

interface WireChoice {
  index?: number;
  message?: { content?: unknown };
  delta?: { content?: unknown };
  finish_reason?: string | null;
}
interface WireBody {
  choices?: WireChoice[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
}

/** Reads a 2xx answer, as SSE when the server streams (it may not, whatever we asked) and as JSON otherwise. */
async function readCompletion(response: Response, stream: boolean, url: string): Promise<Omit<Completion, 'durationMs'>> {
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/html')) {
    throw new EndpointError(`${url} answered with a web page, not a chat-completions response. Check the endpoint (verifiedFix.endpoint, --endpoint): it usually ends in /v1.`, response.status);
  }
  const texts: string[] = [];
  const finish: (string | undefined)[] = [];
  let usage: WireBody['usage'];
  const take = (body: WireBody, streaming: boolean) => {
    if (body.error) throw new BadAnswer(`the server reported an error: ${typeof body.error === 'string' ? body.error : body.error.message}`);
    for (const [position, choice] of (body.choices ?? []).entries()) {
      const index = choice.index ?? position;
      const part = streaming ? choice.delta?.content : choice.message?.content;
      texts[index] = (texts[index] ?? '') + contentText(part);
      if (choice.finish_reason) finish[index] = choice.finish_reason;
    }
    if (body.usage) usage = body.usage;
  };
  if (stream && type.includes('text/event-stream') && response.body) {
    for await (const data of sseData(response.body)) take(parseJson(data), true);
  } else {
    take(parseJson(await response.text()), false);
  }
  const choices: CompletionChoice[] = [];
  for (let i = 0; i < texts.length; i++) choices.push({ content: texts[i] ?? '', finishReason: finish[i] });
  if (choices.length === 0) throw new BadAnswer('the answer has no choices');
  return { choices, promptTokens: usage?.prompt_tokens, completionTokens: usage?.completion_tokens };
}

/** Message content is a string, or (in newer servers) an array of typed parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  return '';
}

function parseJson(text: string): WireBody {
  try {
    return JSON.parse(text) as WireBody;
  } catch {
    const flat = text.trim().replace(/\s+/g, ' ');
    throw new BadAnswer(`the answer is not chat-completions JSON: "${flat.length > 80 ? `${flat.slice(0, 77)}...` : flat}"`);
  }
}

/** The system error code under fetch's generic "fetch failed" TypeError. */
function networkCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  const inner = cause?.errors?.find((e) => typeof e.code === 'string')?.code;
  return typeof inner === 'string' ? inner : undefined;
}
