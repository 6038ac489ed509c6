// `verified-fix fix --provider openai-compatible` end to end: the built CLI, a loopback model server, real tests.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FakeOpenAiServer } from '../../unit/helpers/fakeOpenAiServer';
import { inTurn, startFakeOpenAiServer } from '../../unit/helpers/fakeOpenAiServer';
import type { CliResult } from '../../unit/helpers/cli';
import { runCli } from '../../unit/helpers/cli';
import { fixturesDir } from '../../unit/helpers/paths';

const fixture = join(fixturesDir, 'openai-ws');
const KEY = 'sk-e2e-SECRET-777';
// Line 7 of clamp.js returns `low` where it should return `high`.
const fixed = '```javascript\n  if (value > high) return high;\n```';
const proseWrapped = 'The upper bound is wrong. Here is the fix:\n```js\nif (value > high) return high;\n```\nNow values above the range become high.';
const wrong = '```js\nif (value > high) return value;\n```';
const garbage = 'I am not able to determine the intent of this function.';

let server: FakeOpenAiServer;
before(async () => {
  server = await startFakeOpenAiServer(inTurn({ kind: 'answer', contents: [fixed] }));
});
after(() => server.close());

function fix(extra: string[] = [], json = true): Promise<CliResult> {
  const args = ['fix', '--workspace', fixture, '--file', 'clamp.js', '--lines', '7-7', '--provider', 'openai-compatible'];
  args.push('--endpoint', server.endpoint, '--model', 'm', '--samples', '4', '--k', '2', '--parallel', '2', ...(json ? ['--json'] : []), ...extra);
  // Without NODE_TEST_CONTEXT: a `node --test` started under this test runner would report to it and exit 0.
  const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_API_KEY: KEY, OPENAI_API_KEY: '' };
  delete env.NODE_TEST_CONTEXT;
  return runCli(args, { env });
}

/** Until the lead wires the flags into `fix`, say so instead of failing everyone's test run. */
describe('verified-fix fix --provider openai-compatible', () => {
  it('gets candidates from the model, verifies them with the tests and reports the rest', async () => {
    server.requests.length = 0;
    server.script = inTurn({ kind: 'answer', contents: [fixed, proseWrapped, wrong, garbage], usage: { prompt_tokens: 400, completion_tokens: 80 } });
    const r = await fix();
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.samples, 4, 'the invalid answer counts as a failed sample');
    assert.equal(json.passed, 2);
    // The prose-wrapped answer is the same fix: it passes too but is listed once.
    assert.deepEqual(json.verified, [0]);
    assert.equal(json.candidates[0].replacement, '  if (value > high) return high;');
    assert.equal(json.candidates[1].duplicateOf, 0);
    assert.match(json.candidates[3].reason, /no code/);
    assert.deepEqual(json.lost, []);

    const [sent] = server.requests;
    assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
    assert.equal(sent.body.n, 4);
    const prompt = sent.body.messages.map((m: { content: string }) => m.content).join('\n');
    assert.match(prompt, /<<<SELECTION>>> {2}if \(value > high\) return low;<<<END SELECTION>>>/);
    assert.match(prompt, /clamp keeps values inside the range/, 'the failing baseline output is in the prompt');
    assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
  });

  it('counts lost samples when the server fails some requests', async () => {
    server.requests.length = 0;
    // The first request (n=4) gets one choice, like Ollama; of the three single requests after it the last fails for good.
    // Retry-After: 0 keeps the CLI's retries of that request from slowing the test down.
    server.script = (req) =>
      req.index >= 3 ? { kind: 'status', status: 500, headers: { 'retry-after': '0' } } : { kind: 'answer', contents: [fixed], ignoreN: true };
    const r = await fix();
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.samples, 3, 'n counts only the samples obtained');
    assert.equal(json.lost.length, 1);
    assert.match(json.lost[0], /HTTP 500/);
    assert.equal(json.passed, 3);
    assert.deepEqual(json.verified, [0], 'the same fix three times is listed once');
  });

  it('reports each lost sample once on stderr (the provider does not log it as well)', async () => {
    server.requests.length = 0;
    server.script = (req) =>
      req.index >= 3 ? { kind: 'status', status: 500, headers: { 'retry-after': '0' } } : { kind: 'answer', contents: [fixed], ignoreN: true };
    const r = await fix([], false);
    assert.equal(r.exitCode, 0, r.stderr);
    const lines = r.stderr.split('\n').filter((line) => /lost/.test(line) && /HTTP 500/.test(line));
    assert.equal(lines.length, 1, r.stderr);
  });

  it('exits 2 with one sentence when the server fails every sample, and prints no empty summary', async () => {
    server.requests.length = 0;
    server.script = () => ({ kind: 'status', status: 500, body: { error: { message: 'out of memory' } }, headers: { 'retry-after': '0' } });
    const r = await fix(['--samples', '6']);
    assert.equal(r.exitCode, 2, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.samples, 0);
    assert.equal(json.lost.length, 6);
    const sentence = /verified-fix: the model server at http:\/\/127\.0\.0\.1:\d+\/v1 failed: HTTP 500[^\n]*\(6 of 6 samples lost\), so nothing was tested; [^\n]+\.\n/;
    assert.match(r.stderr, sentence);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);

    const human = await fix(['--samples', '6'], false);
    assert.equal(human.exitCode, 2, human.stderr);
    assert.match(human.stderr, sentence);
    assert.equal(human.stdout, '', 'no "no passing fix" report: nothing was tested');
  });

  it('says how many samples were lost next to n in the human summary', async () => {
    server.requests.length = 0;
    // Two of the four samples come; the other requests fail for good.
    server.script = (req) =>
      req.index === 1 || req.index === 2 ? { kind: 'answer', contents: [fixed], ignoreN: true } : { kind: 'status', status: 500, headers: { 'retry-after': '0' } };
    const r = await fix([], false);
    assert.ok(r.exitCode === 0 || r.exitCode === 1, r.stderr);
    const summary = /^(\d) of (\d) samples passed, (\d) lost \(not counted in n\); pass@1 [\d.]+%, pass@2 [\d.]+%; pass\^1 [\d.]+%, pass\^2 [\d.]+%$/m.exec(r.stdout);
    assert.ok(summary, r.stdout);
    assert.equal(Number(summary[2]) + Number(summary[3]), 4, 'n and the lost make up the samples asked for');
    assert.ok(Number(summary[3]) >= 1);
    assert.match(r.stdout, /sample\(s\) could not be obtained: HTTP 500/);
  });

  it('asks again with the failed candidates (--repair-rounds) and labels each candidate with its round', async () => {
    server.requests.length = 0;
    server.script = inTurn({ kind: 'answer', contents: [wrong] }, { kind: 'answer', contents: [fixed] });
    const r = await fix(['--samples', '1', '--k', '1', '--repair-rounds', '3']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(server.requests.length, 2, 'the verified second round ends the request');
    const json = JSON.parse(r.stdout);
    assert.equal(json.samples, 2);
    assert.deepEqual(json.candidates.map((c: { round: number }) => c.round), [1, 2]);
    assert.deepEqual(json.verified, [1]);
    assert.match(r.stderr, /^round 2: asking openai-compatible for different fixes after 1 failed candidate$/m);
    assert.match(r.stderr, /^candidate #2 \(round 2\) pass/m);
    assert.match(server.requests[1].body.messages.map((m: { content: string }) => m.content).join('\n'), /Attempt 1:\n```javascript\n {2}if \(value > high\) return value;/);

    server.requests.length = 0;
    server.script = inTurn({ kind: 'answer', contents: [wrong] });
    const once = await fix(['--samples', '1', '--k', '1', '--repair-rounds', '0'], false);
    assert.equal(once.exitCode, 1, once.stderr);
    assert.equal(server.requests.length, 1);
    assert.doesNotMatch(once.stderr + once.stdout, /round 2/);
  });

  it('exits with 2 and names the key on 401', async () => {
    server.requests.length = 0;
    server.script = inTurn({ kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } });
    const r = await fix();
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /rejected the API key \(HTTP 401\).*VERIFIED_FIX_API_KEY/);
    assert.ok(!r.stderr.includes(KEY), 'the key is not echoed');
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, 'no stack trace');
  });

  it('exits with 2 and names the model on 404', async () => {
    server.script = inTurn({ kind: 'status', status: 404, body: { error: { message: 'model "m" not found' } } });
    const r = await fix();
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /Model "m" was not found/);
  });
});
