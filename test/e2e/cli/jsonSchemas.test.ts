// The documented JSON Schemas (docs/schemas) against real outputs of the built CLI: bot authors rely on these names.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Ajv from 'ajv';
import { runCli } from '../../unit/helpers/cli';
import { inTurn, startFakeOpenAiServer } from '../../unit/helpers/fakeOpenAiServer';
import { repoRoot } from '../../unit/helpers/paths';
import { clampProject } from '../../unit/helpers/clampProject';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const scratch = makeWorkspace({});
after(() => remove(tempRoot, scratch));

const ajv = new Ajv({ allErrors: true, strict: true });
const schema = (name: string) => ajv.compile(JSON.parse(readFileSync(join(repoRoot, 'docs', 'schemas', `${name}.schema.json`), 'utf8')));
const fixSchema = schema('fix');
const statsSchema = schema('stats');
const resultsSchema = schema('results');

function assertValid(validate: ReturnType<typeof schema>, value: unknown, what: string): void {
  assert.ok(validate(value), `${what}: ${ajv.errorsText(validate.errors)}`);
}

const example = join(repoRoot, 'examples', 'discount');
const results = join(scratch, 'results.jsonl');

describe('docs/schemas', () => {
  // `--strength quick` where a test does not choose: the CLI's default, so the strength fields are described too.
  it('describe fix --json with per-test evidence, a verified fix and failures', async () => {
    const r = await runCli(['fix', '--strength', 'quick', '--workspace', example, '--file', 'src/pricing.js', '--lines', '5-5', '--candidates', join(example, 'candidates.json'), '--json', '--results', results, '--behaviour', 'quick'], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.ok(json.candidates.some((c: { tests?: unknown }) => c.tests), 'the example has per-test evidence');
    // The behaviour check's report (#28) is described too.
    assert.equal(json.behaviour?.status, 'compared', JSON.stringify(json.behaviour));
    assert.ok(json.behaviour.fixes.length > 0 && json.behaviour.fixes[0].examples.length > 0);
    assertValid(fixSchema, json, 'the example');
    assert.equal(fixSchema({ ...json, behaviour: { ...json.behaviour, groups: 'all' } }), false, 'a malformed report is rejected');
  });

  it('describe fix --json without --file/--lines: the localisation, the functions tried and their scores', async () => {
    const ws = makeWorkspace(clampProject);
    const r = await runCli(['fix', '--workspace', ws, '--test', 'node --test test/', '--samples', '20', '--k', '1', '--strength', 'off', '--json'], { env });
    remove(ws);
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.localisation.functions[0].name, 'clamp');
    assertValid(fixSchema, json, 'a workspace-level request');
  });

  it('describe fix --json for timeouts, errors, a stopped request and no per-test results', async () => {
    const ws = makeWorkspace({ 'a.txt': 'old\n', 'check.sh': 'v=$(cat a.txt); case "$v" in slow) sleep 30;; good) exit 0;; *) echo "got $v"; exit 1;; esac\n' });
    writeFileSync(join(ws, 'c.json'), JSON.stringify(['bad', 'slow', 'good', 'bad']));
    const r = await runCli(['fix', '--strength', 'quick', '--workspace', ws, '--file', 'a.txt', '--lines', '1-1', '--candidates', join(ws, 'c.json'), '--test', 'sh check.sh', '--k', '2', '--timeout', '2', '--json', '--results', results], { env });
    remove(ws);
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.candidates.map((c: { status: string }) => c.status), ['fail', 'timeout', 'pass', 'fail']);
    assert.equal(json.baseline.perTest, false);
    assertValid(fixSchema, json, 'a request with a timeout');

    const none = await runCli(['fix', '--strength', 'quick', '--workspace', example, '--file', 'src/pricing.js', '--lines', '5-5', '--candidates', join(example, 'candidates.json'), '--json', '--no-baseline'], { env });
    assertValid(fixSchema, JSON.parse(none.stdout), 'a request without a baseline');
  });

  it('describe fix --json for a model\'s candidates with their repair rounds', async () => {
    const server = await startFakeOpenAiServer(inTurn({ kind: 'answer', contents: ['```js\nif (value > high) return value;\n```'] }, { kind: 'answer', contents: ['```js\nif (value > high) return high;\n```'] }));
    try {
      const ws = join(repoRoot, 'test', 'fixtures', 'openai-ws');
      const r = await runCli(['fix', '--strength', 'quick', '--workspace', ws, '--file', 'clamp.js', '--lines', '7-7', '--endpoint', server.endpoint, '--model', 'm', '--samples', '1', '--k', '1', '--json'], { env: { ...env, VERIFIED_FIX_API_KEY: '', OPENAI_API_KEY: '' } });
      assert.equal(r.exitCode, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      assert.deepEqual(json.candidates.map((c: { round?: number }) => c.round), [1, 2]);
      assertValid(fixSchema, json, 'a request with a repair round');
    } finally {
      await server.close();
    }
  });

  it('reject what the outputs never contain, so the test can fail', () => {
    assert.equal(fixSchema({ file: 'a' }), false);
    assert.equal(statsSchema({ tasks: 1, samples: 1, k: {}, perTask: [], extra: 1 }), false);
    assert.equal(resultsSchema({ task_id: 'a', passed: 'yes', result: 'passed', verdict: 'pass' }), false);
  });

  it('describe every line of a results file and stats --json over it', async () => {
    const lines = readFileSync(results, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.equal(lines.length, 6 + 4);
    lines.forEach((line, i) => assertValid(resultsSchema, line, `results line ${i + 1}`));
    const r = await runCli(['stats', results, '--k', '1,4,6', '--json']);
    assert.equal(r.exitCode, 0, r.stderr);
    assertValid(statsSchema, JSON.parse(r.stdout), 'stats --json');
  });
});
