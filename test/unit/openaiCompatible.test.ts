// The openai-compatible provider against a real loopback chat-completions server: shapes, n, retries, errors, cancel.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { UserError } from '../../src/core/base/errors';
import type { Logger } from '../../src/core/base/logger';
import type { OpenAiCompatibleOptions } from '../../src/core/providers/openaiCompatible';
import { createOpenAiCompatibleProvider, resolveApiKey } from '../../src/core/providers/openaiCompatible';
import type { BaselineReport, ProviderRequest, ProviderSample } from '../../src/core/contract/provider';
import type { FakeOpenAiServer, Reply } from './helpers/fakeOpenAiServer';
import { inTurn, startFakeOpenAiServer } from './helpers/fakeOpenAiServer';

const KEY = 'sk-test-SECRET-4242';
const fileText = 'export function add(a, b) {\n  return a - b;\n}\n';
const start = fileText.indexOf('return');
const end = fileText.indexOf(';') + 1;
const good = '```js\nreturn a + b;\n```';
const logs: string[] = [];
const logger: Logger = {
  trace: (m) => logs.push(m),
  info: (m) => logs.push(m),
  warn: (m) => logs.push(m),
  error: (m) => logs.push(String(m instanceof Error ? m.stack : m)),
};

let server: FakeOpenAiServer;
before(async () => {
  server = await startFakeOpenAiServer(inTurn({ kind: 'answer', contents: [good] }));
});
after(async () => {
  await server.close();
  // Every log line of every test above, including retries and errors: the key must never appear.
  assert.ok(logs.length > 0);
  for (const line of logs) assert.ok(!line.includes(KEY), `key leaked into the log: ${line}`);
});

function reset(...replies: Reply[]): void {
  server.requests.length = 0;
  server.script = inTurn(...replies);
}

const REQUEST_TIMEOUT_MS = 120_000;

function provider(options: Partial<OpenAiCompatibleOptions> = {}) {
  return createOpenAiCompatibleProvider({
    endpoint: server.endpoint,
    model: 'm',
    apiKey: KEY,
    maxConcurrentRequests: 4,
    // Far longer than any answer takes on a saturated machine: the tests about timeouts set their own.
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    maxRetries: 2,
    retryBaseMs: 10,
    ...options,
  });
}

function request(samples: number, extra: Partial<ProviderRequest> = {}): ProviderRequest {
  const baseline: BaselineReport = { status: 'fail', output: 'AssertionError: expected add(2, 3) to be 5, got -1' };
  return {
    languageId: 'javascript',
    relativePath: 'src/add.js',
    fileText,
    start,
    end,
    samples,
    baseline: Promise.resolve(baseline),
    signal: new AbortController().signal,
    logger,
    ...extra,
  };
}

async function collect(iterable: AsyncIterable<ProviderSample>): Promise<ProviderSample[]> {
  const out: ProviderSample[] = [];
  for await (const s of iterable) out.push(s);
  return out;
}

const kinds = (samples: ProviderSample[]) => samples.map((s) => s.kind).join(',');

async function rejectsWith(promise: Promise<unknown>, pattern: RegExp): Promise<UserError> {
  const error = await promise.then(
    () => assert.fail('expected a UserError'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof UserError, String(error));
  assert.match(error.message, pattern);
  assert.ok(!error.message.includes(KEY), 'the key is in the message');
  return error;
}

describe('openai-compatible provider', () => {
  it('asks once with n and turns every choice into a candidate, with usage shared out', async () => {
    reset({ kind: 'answer', contents: [good], usage: { prompt_tokens: 100, completion_tokens: 61 } });
    const samples = await collect(provider().generate(request(3)));
    assert.equal(kinds(samples), 'candidate,candidate,candidate');
    assert.deepEqual(
      samples.map((s) => s.kind === 'candidate' && s.text),
      ['return a + b;', 'return a + b;', 'return a + b;'],
    );
    const usage = samples.map((s) => (s.kind === 'candidate' ? s.usage! : {}));
    assert.equal(usage.reduce((sum, u) => sum + (u.promptTokens ?? 0), 0), 100);
    assert.equal(usage.reduce((sum, u) => sum + (u.completionTokens ?? 0), 0), 61);
    assert.ok(usage.every((u) => typeof u.durationMs === 'number'));

    assert.equal(server.requests.length, 1);
    const [sent] = server.requests;
    assert.equal(sent.url, '/v1/chat/completions');
    assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
    assert.equal(sent.body.n, 3);
    assert.equal(sent.body.model, 'm');
    assert.equal(sent.body.temperature, 0.8);
    const prompt = sent.body.messages.map((m: { content: string }) => m.content).join('\n');
    assert.match(prompt, /<<<SELECTION>>>return a - b;<<<END SELECTION>>>/);
    assert.match(prompt, /expected add\(2, 3\) to be 5, got -1/);
  });

  it('streams: reassembles interleaved chunks of n choices and reads usage from the last chunk', async () => {
    reset({ kind: 'answer', contents: [good, 'Here you go:\n```javascript\nreturn b + a;\n```\nThis fixes the sign.'] });
    const samples = await collect(provider({ stream: true, apiKey: undefined }).generate(request(2)));
    assert.deepEqual(
      samples.map((s) => s.kind === 'candidate' && s.text),
      ['return a + b;', 'return b + a;'],
    );
    assert.equal(server.requests[0].body.stream, true);
    assert.deepEqual(server.requests[0].body.stream_options, { include_usage: true });
    assert.equal(server.requests[0].headers.authorization, undefined, 'no key, no Authorization header');
    assert.ok(samples.every((s) => s.kind === 'candidate' && s.usage?.promptTokens !== undefined));
  });

  it('falls back to parallel single requests when the server ignores n, and remembers it', async () => {
    reset({ kind: 'answer', contents: [good], ignoreN: true });
    const p = provider();
    const first = await collect(p.generate(request(4)));
    assert.equal(kinds(first), 'candidate,candidate,candidate,candidate');
    assert.equal(server.requests.length, 4);
    assert.equal(server.requests[0].body.n, 4);
    assert.ok(server.requests.slice(1).every((r) => r.body.n === undefined));

    server.requests.length = 0;
    await collect(p.generate(request(2)));
    assert.ok(server.requests.every((r) => r.body.n === undefined), 'the second run does not try n again');
  });

  it('keeps at most maxConcurrentRequests in flight without n', async () => {
    reset({ kind: 'answer', contents: [good], delayMs: 200 });
    const samples = await collect(provider({ useN: false, maxConcurrentRequests: 2 }).generate(request(5)));
    assert.equal(samples.length, 5);
    assert.equal(server.requests.length, 5);
    await Promise.all(server.requests.map((r) => r.settled));
    const spans = server.requests.map((r) => [r.receivedAt, r.settledAt!] as const);
    const peak = Math.max(...spans.map(([at]) => spans.filter(([s, e]) => s <= at && at < e).length));
    assert.equal(peak, 2);
  });

  it('tells prose-wrapped code, duplicates and garbage apart', async () => {
    reset({
      kind: 'answer',
      contents: [good, good, 'Sure! The fix:\n```\nreturn a + b;\n```\nHope it helps.', "I'm sorry, but I cannot help with that request."],
    });
    const samples = await collect(provider().generate(request(4)));
    assert.equal(kinds(samples), 'candidate,candidate,candidate,invalid');
    const invalid = samples[3];
    assert.ok(invalid.kind === 'invalid');
    assert.match(invalid.reason, /no code/);
    assert.match(invalid.raw ?? '', /sorry/);
  });

  it('rejects an answer cut off at max tokens inside its code block', async () => {
    reset({ kind: 'answer', contents: ['```js\nreturn a +'], finishReason: 'length' });
    const [sample] = await collect(provider().generate(request(1)));
    assert.ok(sample.kind === 'invalid');
    assert.match(sample.reason, /cut off/);
  });

  it('waits as long as Retry-After says on 429, then succeeds', async () => {
    reset({ kind: 'status', status: 429, headers: { 'retry-after': '1' } }, { kind: 'answer', contents: [good] });
    const samples = await collect(provider({ retryBaseMs: 1 }).generate(request(2)));
    const waited = server.requests[1].receivedAt - server.requests[0].receivedAt;
    assert.equal(kinds(samples), 'candidate,candidate');
    // At least the second Retry-After asked for (backoff alone would wait 1 ms), and nowhere near the cap.
    assert.ok(waited >= 950 && waited < 30_000, `waited ${waited} ms`);
    assert.ok(logs.some((l) => /HTTP 429.*retrying in 1000 ms/.test(l)));
  });

  it('caps a long Retry-After (HTTP date form too)', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    reset({ kind: 'status', status: 503, headers: { 'retry-after': inAMinute } }, { kind: 'answer', contents: [good] });
    await collect(provider({ maxRetryWaitMs: 200 }).generate(request(1)));
    const waited = server.requests[1].receivedAt - server.requests[0].receivedAt;
    // The cap, not the minute the server asked for.
    assert.ok(waited >= 180 && waited < 30_000, `waited ${waited} ms`);
  });

  it('backs off exponentially on 500 and then counts the samples as lost', async () => {
    reset({ kind: 'status', status: 500, body: { error: { message: 'boom' } } });
    const samples = await collect(provider({ retryBaseMs: 50, maxRetries: 2 }).generate(request(3)));
    assert.equal(kinds(samples), 'lost,lost,lost');
    assert.ok(samples[0].kind === 'lost');
    assert.match(samples[0].reason, /HTTP 500: boom \(gave up after 3 attempts\)/);
    assert.equal(samples[0].lostKind, 'server');
    assert.equal(server.requests.length, 3);
    const [a, b, c] = server.requests.map((r) => r.receivedAt);
    // At least 50 ms then 100 ms, each -25% jitter (only lower bounds: a loaded machine adds delay, never removes it).
    assert.ok(b - a >= 37 && c - b >= 75, `gaps ${b - a} ms and ${c - b} ms`);
  });

  it('gives a partial result when some single requests fail', async () => {
    server.requests.length = 0;
    server.script = (r) => (r.index === 1 ? { kind: 'status', status: 500 } : { kind: 'answer', contents: [good] });
    const samples = await collect(provider({ useN: false, maxRetries: 0, maxConcurrentRequests: 1 }).generate(request(3)));
    assert.equal(kinds(samples), 'candidate,lost,candidate');
  });

  it('stops at once on 401 with a message about the key, without retrying or leaking it', async () => {
    reset({ kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } });
    await rejectsWith(collect(provider().generate(request(3))), /rejected the API key \(HTTP 401\).*VERIFIED_FIX_API_KEY/);
    assert.equal(server.requests.length, 1);
  });

  it('names the model on a 404 about the model, and the endpoint otherwise', async () => {
    reset({ kind: 'status', status: 404, body: { error: { message: 'model "m" not found, try pulling it first' } } });
    await rejectsWith(collect(provider().generate(request(1))), /Model "m" was not found.*ollama pull m/);
    reset({ kind: 'answer', contents: [good] });
    await rejectsWith(collect(provider({ endpoint: `${server.endpoint}/wrong` }).generate(request(1))), /Nothing answers at .*\/v1\/wrong\/chat\/completions.*endpoint/);
    assert.equal(server.requests.length, 1);
  });

  it('names the key on 403 and the request on 400 (after trying without n)', async () => {
    reset({ kind: 'status', status: 403 });
    await rejectsWith(collect(provider().generate(request(1))), /refused access \(HTTP 403\)/);
    reset({ kind: 'status', status: 400, body: { error: { message: 'n must be 1' } } }, { kind: 'answer', contents: [good] });
    assert.equal(kinds(await collect(provider().generate(request(2)))), 'candidate,candidate');
    assert.equal(server.requests[0].body.n, 2);
    reset({ kind: 'status', status: 400, body: { error: { message: 'temperature out of range' } } });
    await rejectsWith(collect(provider({ useN: false }).generate(request(2))), /rejected the request \(HTTP 400\).*temperature out of range/);
  });

  it('says the server is not running when the connection is refused', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    await rejectsWith(
      collect(provider({ endpoint: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }).generate(request(1))),
      /Cannot connect to .*ECONNREFUSED.*ollama serve/,
    );
  });

  it('says the endpoint is wrong when a web page answers', async () => {
    reset({ kind: 'raw', contentType: 'text/html', body: '<html>hello</html>' });
    await rejectsWith(collect(provider().generate(request(1))), /web page/);
  });

  it('counts a server that hangs as lost after the timeout and closes the socket', async () => {
    reset({ kind: 'hang' });
    const samples = await collect(provider({ useN: false, requestTimeoutMs: 300, maxRetries: 0 }).generate(request(2)));
    assert.equal(kinds(samples), 'lost,lost');
    assert.ok(samples[0].kind === 'lost');
    assert.match(samples[0].reason, /no complete answer within 300 ms/);
    assert.equal(samples[0].lostKind, 'timeout');
    await Promise.all(server.requests.map((r) => r.settled));
    assert.ok(server.requests.every((r) => r.closedEarlyAt !== undefined));
  });

  for (const stream of [false, true]) {
    it(`aborts in-flight requests promptly on cancel (stream=${stream})`, async () => {
      reset({ kind: 'hang' });
      const controller = new AbortController();
      const run = collect(provider({ useN: false, stream }).generate(request(3, { signal: controller.signal })));
      while (server.requests.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
      const abortedAt = Date.now();
      controller.abort();
      const samples = await run;
      // The cancel ended it, not the request timeout (a quarter of it leaves room for a saturated machine).
      assert.ok(Date.now() - abortedAt < REQUEST_TIMEOUT_MS / 4, 'the generator ends promptly');
      assert.equal(samples.length, 0);
      await Promise.all(server.requests.map((r) => r.settled));
      for (const r of server.requests) assert.ok(r.closedEarlyAt! - abortedAt < REQUEST_TIMEOUT_MS / 4, 'the server sees the socket close');
    });
  }

  it('aborts the other requests when the consumer stops early', async () => {
    server.requests.length = 0;
    server.script = (r) => (r.index === 0 ? { kind: 'answer', contents: [good] } : { kind: 'hang' });
    for await (const sample of provider({ useN: false, maxConcurrentRequests: 3 }).generate(request(3))) {
      assert.equal(sample.kind, 'candidate');
      break;
    }
    // A request aborted while in flight can still reach the server a moment later: wait until the recorded
    // requests stop growing and all have settled. None may be left hanging.
    for (let seen = -1; seen !== server.requests.length; ) {
      seen = server.requests.length;
      await Promise.all(server.requests.map((r) => r.settled));
      await new Promise((r) => setTimeout(r, 200));
    }
    const others = server.requests.filter((r) => r.index !== 0);
    assert.ok(others.every((r) => r.closedEarlyAt !== undefined), `${others.length} other request(s), all closed early`);
  });

  it('reads a hand-written SSE stream with CRLF lines, comments and no final blank line', async () => {
    const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\r\n\r\n`;
    const body = `: keep-alive\r\n\r\n${chunk('```js\nreturn ')}${chunk('a + b;\n```')}data: [DONE]`;
    reset({ kind: 'raw', contentType: 'text/event-stream', body });
    const samples = await collect(provider({ stream: true }).generate(request(1)));
    assert.deepEqual(samples, [{ kind: 'candidate', text: 'return a + b;', usage: { promptTokens: undefined, completionTokens: undefined, durationMs: (samples[0] as { usage: { durationMs: number } }).usage.durationMs } }]);
  });

  it('loses the sample when the stream reports an error or the body is not JSON', async () => {
    reset({ kind: 'raw', contentType: 'text/event-stream', body: 'data: {"error":{"message":"model crashed"}}\n\n' });
    const [a] = await collect(provider({ stream: true }).generate(request(1)));
    assert.deepEqual(a, { kind: 'lost', reason: 'the server reported an error: model crashed', lostKind: 'other' });
    reset({ kind: 'raw', contentType: 'application/json', body: 'oops' });
    const [b] = await collect(provider().generate(request(1)));
    assert.ok(b.kind === 'lost');
    assert.match(b.reason, /not chat-completions JSON: "oops"/);
    assert.equal(server.requests.length, 1, 'a malformed answer is not retried');
  });

  it('rejects a bad endpoint or an empty model at once', () => {
    assert.throws(() => provider({ endpoint: 'localhost:11434' }), /must start with http/);
    assert.throws(() => provider({ endpoint: 'not a url' }), /not a URL/);
    assert.throws(() => provider({ model: ' ' }), /No model is set/);
  });
});

describe('resolveApiKey', () => {
  it('prefers VERIFIED_FIX_API_KEY, then OPENAI_API_KEY, else none', () => {
    assert.equal(resolveApiKey({ VERIFIED_FIX_API_KEY: 'a', OPENAI_API_KEY: 'b' }), 'a');
    assert.equal(resolveApiKey({ VERIFIED_FIX_API_KEY: ' ', OPENAI_API_KEY: 'b' }), 'b');
    assert.equal(resolveApiKey({}), undefined);
  });
});
