// Model repair rounds end to end: the engine, a real loopback chat-completions server (or a scripted chat model) and real tests.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runFix } from '../../../src/core/engine/runFix';
import type { CandidateResult, FixEvent, FixRequest } from '../../../src/core/contract/fixRequest';
import type { ChatModelLike } from '../../../src/core/providers/chatModelProvider';
import { createChatModelProvider } from '../../../src/core/providers/chatModelProvider';
import { createFileProvider } from '../../../src/core/providers/fileProvider';
import { createOpenAiCompatibleProvider } from '../../../src/core/providers/openaiCompatible';
import type { ChatMessage } from '../../../src/core/providers/prompt';
import type { FakeOpenAiServer, RecordedRequest } from '../../unit/helpers/fakeOpenAiServer';
import { inTurn, startFakeOpenAiServer } from '../../unit/helpers/fakeOpenAiServer';
import { fixturesDir } from '../../unit/helpers/paths';
import { makeTempRoot, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const workspace = join(fixturesDir, 'openai-ws');
// Line 7 of clamp.js returns `low` where it should return `high`.
const line = '  if (value > high) return low;';
const start = readFileSync(join(workspace, 'clamp.js'), 'utf8').indexOf(line);
const fixedText = 'if (value > high) return high;';
const fixed = `\`\`\`js\n${fixedText}\n\`\`\``;
const wrongA = '```js\nif (value > high) return value;\n```';
const wrongB = '```js\nif (value >= high) return low;\n```';

let server: FakeOpenAiServer;
before(async () => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
  server = await startFakeOpenAiServer(inTurn({ kind: 'answer', contents: [fixed] }));
});
after(async () => {
  await server.close();
  remove(tempRoot);
});

// A model request's limit: generous, so a loaded machine does not lose a sample, and what a hanging answer lasts.
const HANG_LIMIT_MS = 300_000;

function model() {
  return createOpenAiCompatibleProvider({ endpoint: server.endpoint, model: 'm', maxConcurrentRequests: 2, requestTimeoutMs: HANG_LIMIT_MS, maxRetries: 0 });
}

/** The clamp fixture's buggy line, two samples a round, per-test results from `node --test`. */
function request(overrides: Partial<FixRequest> = {}): FixRequest {
  return {
    workspace,
    relativePath: 'clamp.js',
    start,
    end: start + line.length,
    testCommand: 'node --test',
    samples: 2,
    
    // Generous: no test here waits for a run's time limit, and a loaded machine must not turn a pass into a timeout.
    testTimeoutMs: 300_000,
    totalTimeoutMs: 600_000,
    parallel: 2,
    baselineCheck: true,
    confirmRuns: 1,
    strengthCheck: 'off',
    isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 },
    provider: model(),
    repairRounds: 2,
    ...overrides,
  };
}

const promptOf = (req: RecordedRequest): string => req.body.messages.map((m: { content: string }) => m.content).join('\n');
const rounds = (candidates: readonly CandidateResult[]) => candidates.map((c) => c.round);

describe('model repair rounds', () => {
  it('shows the model its failed candidates with their failing tests, and a verified second round ends the request', async () => {
    server.requests.length = 0;
    server.script = inTurn({ kind: 'answer', contents: [wrongA, wrongB] }, { kind: 'answer', contents: [wrongA, fixed] });
    const events: FixEvent[] = [];
    const result = await runFix(request(), (e) => events.push(e));

    assert.equal(server.requests.length, 2, 'no third request once round 2 verified a fix');
    assert.equal(result.samples, 4, 'both rounds count in n');
    assert.deepEqual(rounds(result.candidates), [1, 1, 2, 2]);
    const verified = result.candidates.find((c) => c.verified);
    assert.equal(verified?.round, 2);
    assert.equal(verified?.replacement, `  ${fixedText}`);
    const again = result.candidates.find((c) => c.round === 2 && !c.verified);
    assert.equal(again?.duplicateOf, 0, 'a round-1 candidate proposed again shares its verdict instead of running again');
    assert.deepEqual(
      events.filter((e) => e.type === 'repairRound'),
      [{ type: 'repairRound', provider: 'openai-compatible', round: 2, failed: 2 }],
    );

    assert.doesNotMatch(promptOf(server.requests[0]), /Earlier attempts/);
    const second = promptOf(server.requests[1]);
    assert.match(second, /Earlier attempts to replace the selection did not pass the tests/);
    assert.ok(second.includes('if (value > high) return value;') && second.includes('if (value >= high) return low;'), second);
    // Stage 1's per-test verdict names the test that still failed; the output's assertion follows.
    assert.match(second, /still failing: [^\n]*clamp keeps values inside the range/);
    assert.match(second, /AssertionError|Expected values/);
    assert.match(second, /different from every earlier attempt/);
  });

  it('asks once with repairRounds 0, and the samples carry round 1', async () => {
    server.requests.length = 0;
    server.script = inTurn({ kind: 'answer', contents: [wrongA, wrongB] });
    const events: string[] = [];
    const result = await runFix(request({ repairRounds: 0 }), (e) => events.push(e.type));
    assert.equal(server.requests.length, 1);
    assert.equal(result.samples, 2);
    assert.deepEqual(rounds(result.candidates), [1, 1]);
    assert.ok(!events.includes('repairRound'));
  });

  it('asks up to 1 + repairRounds times, the last prompt holding every round\'s failures, newest first', async () => {
    server.requests.length = 0;
    const wrongC = '```js\nif (value > high) return -1;\n```';
    server.script = inTurn({ kind: 'answer', contents: [wrongA] }, { kind: 'answer', contents: [wrongB] }, { kind: 'answer', contents: [wrongC] });
    const result = await runFix(request({ samples: 1 }));
    assert.equal(server.requests.length, 3, 'two repair rounds after the first');
    assert.equal(result.samples, 3);
    assert.deepEqual(rounds(result.candidates), [1, 2, 3]);
    assert.deepEqual(result.verified, []);
    const third = promptOf(server.requests[2]);
    assert.match(third, /Attempt 1:\n```javascript\n {2}if \(value >= high\) return low;\n```[\s\S]*Attempt 2:\n```javascript\n {2}if \(value > high\) return value;/, 'round 2 before round 1');
    assert.doesNotMatch(third, /return -1/);
  });

  it('stops the rounds on cancel', async () => {
    server.requests.length = 0;
    server.script = inTurn({ kind: 'answer', contents: [wrongA, wrongB] }, { kind: 'hang' });
    const controller = new AbortController();
    const began = Date.now();
    const result = await runFix(request({ signal: controller.signal }), (e) => {
      if (e.type === 'repairRound') setTimeout(() => controller.abort(), 200);
    });
    assert.equal(result.stoppedEarly?.kind, 'cancelled');
    assert.equal(server.requests.length, 2, 'no round after the cancelled one');
    assert.deepEqual(rounds(result.candidates), [1, 1]);
    // Without the cancel the hanging round would last until the request's limit: the cancel ended it before.
    assert.ok(Date.now() - began < HANG_LIMIT_MS);
  });

  it('keeps the mutation-first order: the first provider\'s candidates are not shown to the model, its rounds are', async () => {
    server.requests.length = 0;
    server.script = inTurn({ kind: 'answer', contents: [wrongA] }, { kind: 'answer', contents: [fixed] });
    const first = { ...createFileProvider(['  if (value > high) return 0;']), name: 'mutation' };
    const result = await runFix(request({ samples: 1, provider: first, fallbackProvider: model() }));
    assert.equal(server.requests.length, 2);
    assert.deepEqual(rounds(result.candidates), [undefined, 1, 2]);
    assert.equal(result.candidates[2].verified, true);
    const second = promptOf(server.requests[1]);
    assert.ok(second.includes('return value;'));
    assert.doesNotMatch(second, /return 0;/, 'the mutants are not the model\'s attempts');
  });

  it('works the same through a chat model (the vscode-lm path)', async () => {
    const sent: ChatMessage[][] = [];
    const chat: ChatModelLike = {
      label: 'fake/model',
      async *sendRequest(messages) {
        sent.push([...messages]);
        yield sent.length <= 2 ? wrongA : fixed;
      },
    };
    const provider = createChatModelProvider({ name: 'vscode-lm', model: async () => chat, maxConcurrentRequests: 2, requestTimeoutMs: HANG_LIMIT_MS });
    const result = await runFix(request({ provider, repairRounds: 1 }));
    assert.equal(sent.length, 4, 'two samples in each of two rounds');
    assert.deepEqual(rounds(result.candidates), [1, 1, 2, 2]);
    assert.ok(result.candidates.some((c) => c.round === 2 && c.verified));
    assert.match(sent[2].map((m) => m.content).join('\n'), /Earlier attempts[\s\S]*return value;[\s\S]*still failing/);
  });

  it('keeps the first round when a repair round is refused (its longer prompt over the model\'s context, say)', async () => {
    server.requests.length = 0;
    server.script = inTurn({ kind: 'answer', contents: [wrongA, wrongB] }, { kind: 'status', status: 400, body: { error: { message: 'context length exceeded' } } });
    const warnings: string[] = [];
    const result = await runFix(request(), (e) => e.type === 'warning' && warnings.push(e.message));
    assert.equal(server.requests.length, 2);
    assert.equal(result.samples, 2);
    assert.equal(result.stoppedEarly, undefined);
    assert.ok(warnings.some((w) => /round 2: .*context length exceeded.*keeping the earlier rounds/.test(w)), warnings.join('\n'));
  });

  it('has no repair round when every sample was lost: there is nothing to learn from', async () => {
    server.requests.length = 0;
    server.script = () => ({ kind: 'status', status: 500 });
    const result = await runFix(request());
    assert.equal(server.requests.length, 1);
    assert.equal(result.samples, 0);
  });
});
