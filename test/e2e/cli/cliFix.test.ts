// `verified-fix fix` through the built CLI: the demo, the JSON shape, exit codes and bad input.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { repoRoot } from '../../unit/helpers/paths';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const example = join(repoRoot, 'examples', 'discount');
const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
after(() => remove(tempRoot));

const demoArgs = ['fix', '--workspace', example, '--file', 'src/pricing.js', '--lines', '5-5', '--candidates', join(example, 'candidates.json')];

describe('verified-fix fix', () => {
  it('verifies the bundled example and prints the JSON object', async () => {
    const before = fingerprint(example);
    const r = await runCli([...demoArgs, '--json'], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(json).slice(0, 11), ['file', 'lines', 'testCommand', 'baseline', 'baselinePassed', 'samples', 'passed', 'lost', 'k', 'passAtK', 'passHatK']);
    assert.equal(json.file, 'src/pricing.js');
    assert.deepEqual(json.lines, [5, 5]);
    assert.equal(json.testCommand, 'npm test');
    assert.equal(json.baseline.status, 'fail');
    assert.equal(json.samples, 6);
    assert.equal(json.passed, 2);
    assert.deepEqual(json.verified, [1]);
    const best = json.candidates[1];
    assert.equal(best.status, 'pass');
    assert.equal(best.replacement, '  if (quantity >= threshold) {');
    assert.match(best.diff, /-  if \(quantity > threshold\) \{\n\+  if \(quantity >= threshold\) \{/);
    assert.equal(json.candidates[4].duplicateOf, 1, 'a candidate ending in its own line break is the same fix');
    assert.ok(Math.abs(json.passAtK['1'] - 2 / 6) < 1e-12);
    assert.ok(Math.abs(json.passAtK['5'] - 1) < 1e-12);
    assert.match(r.stderr, /baseline \(unmodified code\): fail/);
    assert.deepEqual(fingerprint(example), before, 'the example is untouched');
  });

  it("parses the quick start's mutants on a worker thread from the request's start, and verifies the same fixes", async () => {
    const args = ['fix', '--workspace', example, '--file', 'src/pricing.js', '--lines', '5-5', '--provider', 'mutation', '--strength-budget', '0', '--json', '--verbose'];
    const r = await runCli(args, { env });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /mutation: \d+ candidates from \d+ edits .*, parsed on a worker thread from the request's start; trying the first 10/);
    assert.deepEqual(JSON.parse(r.stdout).verified, [0, 2]);
  });

  it('prints the diff for people and keeps line breaks single', async () => {
    const r = await runCli([...demoArgs, '--samples', '5', '--k', '2'], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /1 verified fix \(best first\)/);
    assert.match(r.stdout, /\+  if \(quantity >= threshold\) \{\n     return/);
    assert.match(r.stdout, /pass@1 40\.0%, pass@2 70\.0%/);
  });

  it('stops when the baseline times out, names --timeout with the baseline\'s time and writes no results (exit 2)', async () => {
    const ws = makeWorkspace({ 'a.txt': 'old\n', 'check.sh': 'sleep 30\n' });
    const candidates = join(ws, 'c.json');
    writeFileSync(candidates, JSON.stringify(['bad', 'worse', 'worst']));
    const results = join(ws, 'results.jsonl');
    const r = await runCli(['fix', '--workspace', ws, '--file', 'a.txt', '--lines', '1-1', '--candidates', candidates, '--test', 'sh check.sh', '--k', '1', '--timeout', '1', '--parallel', '1', '--results', results], { env });
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /the tests on the unmodified code timed out \(stopped at \d+\.\d s\), so no candidate could be judged and the request stopped; raise --timeout above the time the tests take/);
    assert.doesNotMatch(r.stderr, /more samples/);
    assert.doesNotMatch(r.stderr, /candidate #\d timeout/, 'no candidate spent its run');
    assert.equal(existsSync(results), false, 'nothing for the statistics');
    remove(ws);
  });

  it('groups identical failures and leads with the conclusion when none passes', async () => {
    const ws = makeWorkspace({ 'a.txt': 'old\n', 'check.sh': 'echo "expected good"; test "$(cat a.txt)" = good\n' });
    const candidates = join(ws, 'c.json');
    writeFileSync(candidates, JSON.stringify(['bad', 'worse', 'awful']));
    const r = await runCli(['fix', '--workspace', ws, '--file', 'a.txt', '--lines', '1-1', '--candidates', candidates, '--test', 'sh check.sh', '--k', '1'], { env });
    assert.equal(r.exitCode, 1, r.stderr);
    assert.match(r.stdout, /^No passing fix found \(0 of 3 passed\): all 3 candidates fail with `expected good`\./m);
    assert.equal(r.stdout.match(/expected good/g)?.length, 2, `the failure once in the conclusion and once in its group:\n${r.stdout}`);
    assert.match(r.stdout, /#1, #2, #3:/);
    assert.match(r.stdout, /^Next: more samples \(--samples\), a model provider \(--provider openai-compatible\) or widen --lines\.$/m);
    remove(ws);
  });

  it('exits 1 with each candidate\'s failure when none passes', async () => {
    const ws = makeWorkspace({ 'a.txt': 'old\n', 'check.sh': 'echo "expected good, got $(cat a.txt)"; test "$(cat a.txt)" = good\n' });
    const candidates = join(ws, 'c.json');
    writeFileSync(candidates, JSON.stringify(['bad', 'worse']));
    const r = await runCli(['fix', '--workspace', ws, '--file', 'a.txt', '--lines', '1-1', '--candidates', candidates, '--test', 'sh check.sh', '--k', '1'], { env });
    assert.equal(r.exitCode, 1, r.stderr);
    assert.match(r.stdout, /No passing fix found \(0 of 2 passed\)/);
    assert.match(r.stdout, /#1 fail[\s\S]*expected good, got bad/);
    remove(ws);
  });

  it('documents itself: examples and exit codes in every help, the nearest flag for a typo', async () => {
    const help = await runCli(['fix', '--help']);
    assert.equal(help.exitCode, 0, help.stderr);
    assert.match(help.stdout, /examples:\n(.*\n){2,}/);
    assert.match(help.stdout, /exit codes:\n {2}0 +a verified fix was found\n {2}1 .*\n {2}2 +bad input or a provider failure.*\n {2}3 +internal error/);
    for (const args of [['--help'], ['stats', '--help'], ['help', 'stats']]) {
      const r = await runCli(args);
      assert.equal(r.exitCode, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /exit codes:/);
      assert.ok(r.stdout.split('\n').every((line) => line.length <= 100), `${args.join(' ')}: a line wider than 100 columns`);
    }
    const typo = await runCli(['fix', '--workspace', '.', '--timout', '5']);
    assert.equal(typo.exitCode, 2);
    assert.equal(typo.stderr, "verified-fix: Unknown option '--timout'. Did you mean --timeout?\n");
    const statsTypo = await runCli(['stats', 'x.jsonl', '--jsn']);
    assert.equal(statsTypo.stderr, "verified-fix: Unknown option '--jsn'. Did you mean --json?\n");
    const unknown = await runCli(['fix', '--frobnicate']);
    assert.match(unknown.stderr, /Unknown option '--frobnicate'\. verified-fix fix --help lists the options\./);
  });

  const ws = makeWorkspace({ 'a.txt': 'one\ntwo\n', 'c.json': '["x"]', 'empty.json': '[]', 'bad.json': '{', 'nums.json': '[1]' });
  after(() => remove(ws));
  const base = ['fix', '--workspace', ws, '--file', 'a.txt', '--test', 'true', '--candidates', join(ws, 'c.json')];
  const bad: Array<[string, string[], RegExp]> = [
    ['a missing workspace', ['fix', '--workspace', join(ws, 'nope'), '--file', 'a.txt', '--lines', '1-1', '--candidates', join(ws, 'c.json')], /file not found|workspace folder not found/],
    ['a missing file', [...base, '--lines', '1-1'].map((a) => (a === 'a.txt' ? 'b.txt' : a)), /file not found: b\.txt/],
    ['a file outside the workspace', [...base, '--lines', '1-1'].map((a) => (a === 'a.txt' ? '../a.txt' : a)), /not inside the workspace|file not found/],
    ['lines out of range', [...base, '--lines', '2-9'], /the file has only 2 lines/],
    ['reversed lines', [...base, '--lines', '2-1'], /reversed/],
    ['malformed lines', [...base, '--lines', 'x'], /--lines must look like A-B/],
    ['k above samples', [...base, '--lines', '1-1', '--k', '3'], /"verifiedFix\.k" \/ --k \(3\) must not exceed "verifiedFix\.samples" \/ --samples \(1\)/],
    ['an empty candidates file', [...base, '--lines', '1-1'].map((a) => a.replace('c.json', 'empty.json')), /candidates array is empty/],
    ['a malformed candidates file', [...base, '--lines', '1-1'].map((a) => a.replace('c.json', 'bad.json')), /bad\.json: not valid JSON/],
    ['non-string candidates', [...base, '--lines', '1-1'].map((a) => a.replace('c.json', 'nums.json')), /element 0 is not a string/],
    ['no test command found', ['fix', '--workspace', ws, '--file', 'a.txt', '--lines', '1-1', '--candidates', join(ws, 'c.json')], /No test command found/],
    ['a bad timeout', [...base, '--lines', '1-1', '--timeout=-1'], /"verifiedFix\.testTimeoutSeconds" \/ --timeout must be a number of seconds from 1 to 2147483, got -1/],
  ];
  for (const [name, args, message] of bad) {
    it(`exits 2 on ${name}`, async () => {
      const r = await runCli(args, { env });
      assert.equal(r.exitCode, 2, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    });
  }

  it('accepts the file as an absolute path or with ./, and still protects the test files', async () => {
    for (const file of [join(example, 'src', 'pricing.js'), './src/pricing.js']) {
      const r = await runCli([...demoArgs.map((a) => (a === 'src/pricing.js' ? file : a)), '--json'], { env });
      assert.equal(r.exitCode, 0, `${file}: ${r.stderr}`);
      assert.equal(JSON.parse(r.stdout).file, 'src/pricing.js');
    }
  });

  it('exits 2 without waiting out the total timeout when the temp folder cannot be made', async () => {
    const blocker = join(ws, 'a.txt');
    const r = await runCli([...base, '--lines', '1-1', '--total-timeout', '600'], { env: { ...env, VERIFIED_FIX_TMPDIR: join(blocker, 'sub') } });
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /cannot create the temp folder .*set VERIFIED_FIX_TMPDIR/);
  });

  it('reports a test command that does not exist as an error verdict', async () => {
    const r = await runCli([...base, '--lines', '1-1', '--test', 'no-such-test-runner-vf', '--json'], { env });
    assert.equal(r.exitCode, 1);
    const json = JSON.parse(r.stdout);
    assert.equal(json.baseline.status, 'error');
    assert.equal(json.candidates[0].status, 'error');
    assert.match(json.candidates[0].reason, /command not found/);
  });
});
