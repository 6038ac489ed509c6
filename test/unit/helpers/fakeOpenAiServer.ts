// A real loopback HTTP server speaking OpenAI chat-completions, scriptable per request, for provider tests.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server does with one request. */
export type Reply =
  /** Answers with choices cycling through `contents`; `n` choices unless `ignoreN` (then one, like Ollama). */
  | {
      readonly kind: 'answer';
      readonly contents: readonly string[];
      readonly ignoreN?: boolean;
      readonly finishReason?: string;
      /** Token counts to report; `null` reports none. Default 100 prompt, 20 completion per choice. */
      readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number } | null;
      /** Pause between streamed chunks (ms). */
      readonly chunkDelayMs?: number;
      /** Pause before answering at all (ms), to observe concurrency. */
      readonly delayMs?: number;
    }
  | { readonly kind: 'status'; readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: 'raw'; readonly status?: number; readonly contentType: string; readonly body: string }
  /** Accepts the request and never answers (until the client gives up and closes the socket). */
  | { readonly kind: 'hang' };

/** One request as the server saw it. */
export interface RecordedRequest {
  readonly index: number;
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test inspects whatever the client sent
  readonly body: any;
  readonly receivedAt: number;
  /** Set when the client closed the connection before the answer was complete. */
  closedEarlyAt?: number;
  /** When the response ended or the connection closed. */
  settledAt?: number;
  /** Resolves when the response ends or the connection closes, whichever comes first. */
  readonly settled: Promise<void>;
}

export type Script = (request: RecordedRequest) => Reply;

export interface FakeOpenAiServer {
  /** `http://127.0.0.1:PORT/v1`, the endpoint to configure. */
  readonly endpoint: string;
  readonly requests: RecordedRequest[];
  /** Replaces the script for the requests that follow. */
  script: Script;
  close(): Promise<void>;
}

/** A script that answers in turn with `replies`, repeating the last one. */
export function inTurn(...replies: Reply[]): Script {
  return (request) => replies[Math.min(request.index, replies.length - 1)];
}

const MAX_REQUESTS = 10_000; // a runaway client loop fails the test instead of spinning forever

/** Starts the server on 127.0.0.1 with an ephemeral port. */
export async function startFakeOpenAiServer(script: Script): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  const state = { script };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = Buffer.concat(chunks).toString('utf8');
      }
      let settle!: () => void;
      const record: RecordedRequest = {
        index: requests.length,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        receivedAt: Date.now(),
        settled: new Promise<void>((resolve) => (settle = resolve)),
      };
      requests.push(record);
      res.on('close', () => {
        record.settledAt = Date.now();
        if (!res.writableFinished) record.closedEarlyAt = record.settledAt;
        settle();
      });
      if (requests.length > MAX_REQUESTS || req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not Found' } }));
        return;
      }
      void reply(state.script(record), record, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/v1`,
    requests,
    get script() {
      return state.script;
    },
    set script(next: Script) {
      state.script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function reply(r: Reply, request: RecordedRequest, res: ServerResponse): Promise<void> {
  switch (r.kind) {
    case 'hang':
      return;
    case 'status':
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(JSON.stringify(r.body ?? { error: { message: `status ${r.status}` } }));
      return;
    case 'raw':
      res.writeHead(r.status ?? 200, { 'content-type': r.contentType }).end(r.body);
      return;
    case 'answer':
      return answer(r, request, res);
  }
}

async function answer(r: Extract<Reply, { kind: 'answer' }>, request: RecordedRequest, res: ServerResponse): Promise<void> {
  if (r.delayMs) await new Promise((resolve) => setTimeout(resolve, r.delayMs));
  if (res.destroyed) return;
  const n = r.ignoreN ? 1 : Math.max(1, Number(request.body?.n ?? 1));
  const contents = Array.from({ length: n }, (_, i) => r.contents[i % r.contents.length]);
  const finish = r.finishReason ?? 'stop';
  const usage = r.usage === null ? undefined : (r.usage ?? { prompt_tokens: 100, completion_tokens: 20 * n });
  const base = { id: `chatcmpl-${request.index}`, object: 'chat.completion', created: 0, model: request.body?.model };
  if (!request.body?.stream) {
    const choices = contents.map((content, index) => ({ index, message: { role: 'assistant', content }, finish_reason: finish }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...base, choices, ...(usage ? { usage } : {}) }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  const pieces = contents.map((c) => c.match(/[\s\S]{1,7}/g) ?? ['']);
  const longest = Math.max(...pieces.map((p) => p.length));
  // Interleave the choices' chunks, as servers streaming n > 1 do.
  for (let step = 0; step < longest && !res.destroyed; step++) {
    const choices = pieces.flatMap((p, index) => (step < p.length ? [{ index, delta: { content: p[step] }, finish_reason: null }] : []));
    send({ ...base, object: 'chat.completion.chunk', choices });
    if (r.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, r.chunkDelayMs));
  }
  if (res.destroyed) return;
  send({ ...base, object: 'chat.completion.chunk', choices: contents.map((_, index) => ({ index, delta: {}, finish_reason: finish })) });
  if (usage && request.body?.stream_options?.include_usage) send({ ...base, object: 'chat.completion.chunk', choices: [], usage });
  send('[DONE]');
  res.end();
}
