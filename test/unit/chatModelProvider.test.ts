// The chat-model provider (behind vscode-lm) through its narrow interface: prompt sent, answers, errors, cancel.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UserError } from '../../src/core/base/errors';
import { silentLogger } from '../../src/core/base/logger';
import type { ChatModelLike, ChatModelProviderOptions } from '../../src/core/providers/chatModelProvider';
import { createChatModelProvider, modelSettingValue, parseModelSelector, withoutSystemRole } from '../../src/core/providers/chatModelProvider';
import type { ChatMessage } from '../../src/core/providers/prompt';
import type { ProviderRequest, ProviderSample } from '../../src/core/contract/provider';

const fileText = 'def add(a, b):\n    return a - b\n';
const start = fileText.indexOf('return');
const end = fileText.indexOf('b\n') + 1;

/** A scripted model: `answer(i)` gives the chunks of the i-th request, or throws. Records what it was sent. */
function fakeModel(answer: (index: number) => string[] | Error | 'hang') {
  const sent: ChatMessage[][] = [];
  const aborted: number[] = [];
  let inFlight = 0;
  let peak = 0;
  const model: ChatModelLike = {
    label: 'fake/model',
    async *sendRequest(messages, signal) {
      const index = sent.push([...messages]) - 1;
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        const script = answer(index);
        if (script instanceof Error) throw script;
        if (script === 'hang') {
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
          return;
        }
        for (const chunk of script) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          yield chunk;
        }
      } finally {
        if (signal.aborted) aborted.push(index);
        inFlight--;
      }
    },
    countTokens: async (text) => Math.ceil(text.length / 4),
  };
  return { model, sent, aborted, peak: () => peak };
}

/** Far longer than an answer takes on a saturated machine, so a test about cancel can tell the two apart. */
const REQUEST_TIMEOUT_MS = 120_000;

function provider(model: ChatModelLike, extra: Partial<ChatModelProviderOptions> = {}) {
  return createChatModelProvider({ name: 'vscode-lm', model: async () => model, maxConcurrentRequests: 2, requestTimeoutMs: REQUEST_TIMEOUT_MS, ...extra });
}

function request(samples: number, signal = new AbortController().signal): ProviderRequest {
  return {
    languageId: 'python',
    relativePath: 'add.py',
    fileText,
    start,
    end,
    samples,
    baseline: Promise.resolve({ status: 'fail', output: 'AssertionError: assert -1 == 5' }),
    signal,
    logger: silentLogger,
  };
}

async function collect(iterable: AsyncIterable<ProviderSample>): Promise<ProviderSample[]> {
  const out: ProviderSample[] = [];
  for await (const s of iterable) out.push(s);
  return out;
}

describe('chat-model provider', () => {
  it('sends the prompt with the baseline and turns streamed answers into samples', async () => {
    const fake = fakeModel((i) => (i === 2 ? ['I cannot ', 'do that, sorry.'] : ['```py', 'thon\nreturn a', ' + b\n```']));
    const samples = await collect(provider(fake.model).generate(request(3)));
    assert.deepEqual(
      samples.map((s) => (s.kind === 'candidate' ? s.text : s.kind)),
      ['return a + b', 'return a + b', 'invalid'],
    );
    assert.equal(fake.sent.length, 3);
    assert.ok(fake.peak() <= 2, 'at most maxConcurrentRequests at once');
    const prompt = fake.sent[0].map((m) => m.content).join('\n');
    assert.match(prompt, /<<<SELECTION>>>return a - b<<<END SELECTION>>>/);
    assert.match(prompt, /assert -1 == 5/);
    const usage = samples[0].kind === 'candidate' ? samples[0].usage : undefined;
    assert.ok(usage?.promptTokens && usage.completionTokens && usage.durationMs !== undefined);
  });

  it('ends the request with the mapped UserError (consent, quota)', async () => {
    const fake = fakeModel(() => Object.assign(new Error('blocked'), { code: 'Blocked' }));
    const mapError = (e: unknown) => ((e as { code?: string }).code === 'Blocked' ? new UserError('quota used up: pick another model') : undefined);
    await assert.rejects(collect(provider(fake.model, { mapError }).generate(request(2))), /quota used up/);
  });

  it('loses a sample on other errors and on timeout, keeping the rest', async () => {
    const fake = fakeModel((i) => (i === 0 ? new Error('network glitch') : i === 1 ? 'hang' : ['```\nreturn a + b\n```']));
    const samples = await collect(provider(fake.model, { requestTimeoutMs: 200, maxConcurrentRequests: 1 }).generate(request(3)));
    assert.deepEqual(
      samples.map((s) => (s.kind === 'lost' ? s.reason : s.kind)),
      ['fake/model failed: network glitch', 'no complete answer from fake/model within 200 ms', 'candidate'],
    );
  });

  it('reports a missing model as the resolver says', async () => {
    const p = createChatModelProvider({
      name: 'vscode-lm',
      model: async () => {
        throw new UserError('No chat model is available');
      },
      maxConcurrentRequests: 1,
      requestTimeoutMs: 1_000,
    });
    await assert.rejects(collect(p.generate(request(1))), /No chat model is available/);
  });

  it('aborts the requests in flight on cancel', async () => {
    const fake = fakeModel(() => 'hang');
    const controller = new AbortController();
    const run = collect(provider(fake.model).generate(request(4, controller.signal)));
    while (fake.sent.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const abortedAt = Date.now();
    controller.abort();
    assert.equal((await run).length, 0);
    // The cancel ended it, not the request timeout.
    assert.ok(Date.now() - abortedAt < REQUEST_TIMEOUT_MS / 4, 'ends promptly');
    assert.deepEqual(fake.aborted.sort(), [0, 1]);
    assert.equal(fake.sent.length, 2, 'no new request after cancel');
  });
});

describe('chat-model helpers', () => {
  it('folds the system message into the first user message', () => {
    assert.deepEqual(
      withoutSystemRole([
        { role: 'system', content: 'S' },
        { role: 'user', content: 'U' },
      ]),
      [{ role: 'user', content: 'S\n\nU' }],
    );
  });

  it('reads the model setting', () => {
    assert.deepEqual(parseModelSelector(''), {});
    assert.deepEqual(parseModelSelector('gpt-4o'), { family: 'gpt-4o' });
    assert.deepEqual(parseModelSelector('copilot/gpt-4o'), { vendor: 'copilot', family: 'gpt-4o' });
    assert.deepEqual(parseModelSelector('copilot/gpt-4o/gpt-4o-2024'), { vendor: 'copilot', family: 'gpt-4o', id: 'gpt-4o-2024' });
    const value = modelSettingValue({ vendor: 'copilot', family: 'gpt-4o', id: 'gpt-4o-2024' });
    assert.deepEqual(parseModelSelector(value), { vendor: 'copilot', family: 'gpt-4o', id: 'gpt-4o-2024' });
  });
});
