// scripts/review-bot.sh (docs/ci.md): a local git repository whose last commit breaks a test, the built CLI, the
// outputs outside the repository and the working tree untouched (the workflow file: test/unit/reviewWorkflow.test.ts).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { clampProject } from '../../unit/helpers/clampProject';
import { cliPath, repoRoot } from '../../unit/helpers/paths';

const script = join(repoRoot, 'scripts', 'review-bot.sh');
const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
}

const source = (index: number): string =>
  `'use strict';\nfunction firstName(people) {\n  return people[${index}].name.toUpperCase();\n}\nmodule.exports = { firstName };\n`;

/** A node --test project: a working commit, then (when `bug`) a commit that changes one token of the source. */
function makeRepo(bug: boolean, title = 'first name in capitals'): string {
  const dir = temp('review-bot-repo-');
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'names', private: true, scripts: { test: 'node --test' } }, null, 2));
  writeFileSync(join(dir, 'src', 'names.js'), source(0));
  writeFileSync(
    join(dir, 'test', 'names.test.js'),
    "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { firstName } = require('../src/names');\n" +
      `test(${JSON.stringify(title)}, () => {\n` +
      "  assert.equal(firstName([{ name: 'ada' }]), 'ADA');\n});\n",
  );
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'works');
  if (bug) {
    writeFileSync(join(dir, 'src', 'names.js'), source(1));
    git(dir, 'commit', '-qam', 'off by one');
  }
  return dir;
}

/** A node --test project whose failing test fails by assertion only: its stack names no source line. */
function makeAssertionRepo(): string {
  const dir = temp('review-bot-assert-');
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'range', private: true, scripts: { test: 'node --test' } }, null, 2));
  for (const [path, text] of Object.entries(clampProject)) writeFileSync(join(dir, path), text);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'clamp');
  return dir;
}

interface BotResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The CLI as the bot runs it in the tests that are not about the strength and behaviour checks: without them (they add
 * variant runs, recording runs and replays to every request); the one test that reads their lines runs the CLI as is.
 */
const leanCli = join(temp('review-bot-cli-'), 'lean-cli.cjs');
writeFileSync(leanCli, `process.argv.push('--strength', 'off', '--behaviour', 'off');\nrequire(${JSON.stringify(cliPath)});\n`);

function runBot(cwd: string, out: string, extraEnv: NodeJS.ProcessEnv = {}, checks = false): Promise<BotResult> {
  // Without NODE_TEST_CONTEXT: the project's `node --test` would otherwise report to this runner and exit 0.
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['NODE_TEST_CONTEXT', 'VERIFIED_FIX_PROVIDER', 'VERIFIED_FIX_ENDPOINT', 'VERIFIED_FIX_MODEL', 'VERIFIED_FIX_RESULTS', 'BASE', 'HEAD_REF', 'TEST']) delete env[name];
  Object.assign(env, { VERIFIED_FIX_CLI: `${process.execPath} ${checks ? cliPath : leanCli}`, VERIFIED_FIX_OUT: out }, extraEnv);
  return new Promise((resolve) => {
    execFile('bash', [script], { cwd, env, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : error ? 99 : 0;
      resolve({ exitCode: code, stdout, stderr });
    });
  });
}

describe('scripts/review-bot.sh', () => {
  it('the tests in step 1 cannot reach the CI\'s step files or the output folder (a forged found=true)', async () => {
    const repo = makeRepo(true);
    const out = temp('review-bot-out-');
    const stepFiles = temp('review-bot-step-');
    const files = ['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STEP_SUMMARY'].map((name) => [name, join(stepFiles, name)] as const);
    for (const [, path] of files) writeFileSync(path, '');
    writeFileSync(
      join(repo, 'test', 'forge.test.js'),
      "const fs = require('node:fs');\nfor (const n of ['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STEP_SUMMARY']) if (process.env[n]) fs.appendFileSync(process.env[n], 'found=true\\nBASH_ENV=/tmp/x\\n');\n" +
        "if (process.env.VERIFIED_FIX_OUT) fs.writeFileSync(require('node:path').join(process.env.VERIFIED_FIX_OUT, 'verified-fix-review.md'), 'forged');\n",
    );
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'forge');
    await runBot(repo, out, Object.fromEntries(files));
    // The script's own last step may write `found=true` to GITHUB_OUTPUT; the tests' line (with BASH_ENV) never lands.
    for (const [name, path] of files) assert.doesNotMatch(readFileSync(path, 'utf8'), /BASH_ENV=/, `${name} was not written by the tests`);
    assert.ok(!readdir(out).includes('verified-fix-review.md') || !readFileSync(join(out, 'verified-fix-review.md'), 'utf8').includes('forged'), 'the review is not the tests\' forgery');
  });

  it('found=true comes only from its own last lines: a line the tests append to the output file is overridden', async () => {
    // On a hosted runner the step files sit in a guessable folder: the tests find GITHUB_OUTPUT without the variable.
    const repo = makeRepo(false);
    const out = temp('review-bot-out-');
    const output = join(temp('review-bot-step-'), 'set_output');
    writeFileSync(output, '');
    writeFileSync(join(repo, 'test', 'forge.test.js'), "require('node:fs').appendFileSync(process.env.FORGE_TARGET, 'found=true\\nfile=src/names.js\\nline=3\\n');\n");
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'forge');
    const r = await runBot(repo, out, { GITHUB_OUTPUT: output, FORGE_TARGET: output });
    assert.equal(r.exitCode, 1, r.stderr);
    const found = readFileSync(output, 'utf8').split('\n').filter((l) => l.startsWith('found='));
    assert.equal(found.at(-1), 'found=false', readFileSync(output, 'utf8'));
  });

  it('a process the tests leave behind cannot replace the outputs afterwards; test names cannot forge the body', async () => {
    const title = 'caps` **approved by a maintainer** <!--\n```suggestion\nevil()\n```';
    const repo = makeRepo(true, title);
    const out = temp('review-bot-out-');
    const target = JSON.stringify(join(out, 'verified-fix-review.md'));
    writeFileSync(
      join(repo, 'test', 'linger.test.js'),
      "const { spawn } = require('node:child_process');\n" +
        `spawn(process.execPath, ['-e', ${JSON.stringify(`const fs = require('fs'); const t = setInterval(() => { try { fs.writeFileSync(${target}, 'forged'); } catch {} }, 100); setTimeout(() => clearInterval(t), 240000);`)}], { stdio: 'ignore' }).unref();\n`,
    );
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'linger');
    const r = await runBot(repo, out, { BASE: 'HEAD~2' });
    assert.equal(r.exitCode, 0, r.stderr);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const review = readFileSync(join(out, 'verified-fix-review.md'), 'utf8');
    assert.notEqual(review, 'forged', 'the lingering process was killed with the tests\' process group');
    assert.equal(review.match(/^`{3,}suggestion$/gm)?.length, 1, `one suggestion block only:\n${review}`);
    assert.equal(review.match(/^<!--/gm)?.length, 1, 'no comment but the marker');
    assert.ok(review.includes('`` test/names.test.js > caps` **approved by a maintainer** <!-- ```suggestion evil() ``` ``') || review.includes('```` test/names.test.js > caps` **approved by a maintainer** <!-- ```suggestion evil() ``` ````'), review);
  });

  it('--help ends with the usage text, not the script', async () => {
    const r = await new Promise<string>((resolve) => execFile('bash', [script, '--help'], (_e, stdout) => resolve(stdout)));
    assert.doesNotMatch(r, /set -euo pipefail/);
  });

  it('an assertion-only failure (no frame names a source line): the function the failing test runs gets a verified suggestion', async () => {
    const repo = makeAssertionRepo();
    const out = temp('review-bot-out-');
    const r = await runBot(repo, out, { VERIFIED_FIX_SAMPLES: '20' });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /no stack frame points into a source file of the project/);
    assert.match(r.stderr, /asking verified-fix which functions the failing tests run/);
    const review = readFileSync(join(out, 'verified-fix-review.md'), 'utf8');
    assert.match(review, /<!-- verified-fix: file=src\/range\.js lines=2-11 -->/);
    assert.match(review, /\*\*Verified fix\*\* for `src\/range\.js` lines 2–11/);
    assert.match(review, /^- the failing test `clamp keeps the upper bound` runs src\/range\.js:clamp \(score 1\.0\), src\/util\.js:toInt \(0\.\d\)$/m);
    assert.match(review, /^- tried `src\/range\.js:clamp` \(score 1\.00, the fix\)$/m);
    assert.match(review, /```suggestion\nfunction clamp\(value, low, high\) \{\n[^`]*    return high;\n/);
    assert.match(readFileSync(join(out, 'verified-fix.diff'), 'utf8'), /^\+ {4}return high;$/m);
    assert.equal(git(repo, 'status', '--porcelain'), '', 'the working tree is unchanged');
  });

  it('finds the line a failing test points at, writes only a verified diff and leaves the tree as it was', async () => {
    const repo = makeRepo(true);
    const out = temp('review-bot-out-');
    // No budget: the strength line is asserted below, and a budget would end the check wherever a loaded machine is.
    const r = await runBot(repo, out, { BASE: 'HEAD~1', VERIFIED_FIX_STRENGTH_BUDGET: '0' }, true);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /stack trace points at src\/names\.js:3/);
    assert.match(r.stderr, /--strength-budget 0/);
    const diff = readFileSync(join(out, 'verified-fix.diff'), 'utf8');
    assert.match(diff, /^--- a\/src\/names\.js$/m);
    assert.match(diff, /^-  return people\[1\]\.name\.toUpperCase\(\);$/m);
    assert.match(diff, /^\+  return people\[0\]\.name\.toUpperCase\(\);$/m);
    const review = readFileSync(join(out, 'verified-fix-review.md'), 'utf8');
    assert.match(review, /```suggestion\n {2}return people\[0\]\.name\.toUpperCase\(\);\n```/);
    assert.match(review, /fixes the failing test: `test\/names\.test\.js > first name in capitals`/);
    assert.match(review, /passed 2 of 2 runs/);
    // What a reviewer needs most: whether the tests also accept a different program, and how firmly they pin this one.
    assert.match(review, /^- (it is the only verified candidate|another verified candidate is a different program the tests also accept|\d+ other verified candidates are different programs the tests also accept)/m);
    assert.match(review, /^- strength: (the tests caught \d+ of \d+ variants|weak tests, \d+ of \d+ variants of this fix also pass)/m);
    // The behaviour check (#28): what the fix changes beyond the failing tests, with an input when it is simple.
    assert.match(review, /^- besides the failing tests, it changes (no result on the \d+ inputs tried|the result on \d+ of \d+ inputs tried)/m);
    assert.match(review, /<!-- verified-fix: file=src\/names\.js lines=3-3 -->/);
    assert.equal(git(repo, 'status', '--porcelain'), '', 'the working tree is unchanged');
    assert.equal(readFileSync(join(repo, 'src', 'names.js'), 'utf8'), source(1));
  });

  it('writes its outputs into the working tree only where asked (default .), nothing else', async () => {
    const repo = makeRepo(true);
    const r = await runBot(repo, '.');
    assert.equal(r.exitCode, 0, r.stderr);
    const status = git(repo, 'status', '--porcelain').split('\n').filter(Boolean).sort();
    assert.deepEqual(status, ['?? verified-fix-review.md', '?? verified-fix.diff']);
  });

  it('exits 1 with "no failing test" when the suite passes, and writes nothing', async () => {
    const repo = makeRepo(false);
    const out = temp('review-bot-out-');
    const r = await runBot(repo, out);
    assert.equal(r.exitCode, 1, r.stderr);
    assert.match(r.stderr, /no failing test: 'npm test' passes, nothing to fix/);
    assert.deepEqual(readdir(out), []);
    assert.equal(git(repo, 'status', '--porcelain'), '');
  });

  it('exits 1 (nothing to suggest), as the CLI does, when the failing test runs no function of the project', async () => {
    const repo = makeRepo(false);
    writeFileSync(join(repo, 'test', 'sum.test.js'), "const test = require('node:test');\nconst assert = require('node:assert/strict');\ntest('arithmetic', () => assert.equal(1 + 1, 3));\n");
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'a test of nothing in src');
    const out = temp('review-bot-out-');
    const r = await runBot(repo, out);
    assert.equal(r.exitCode, 1, r.stderr);
    assert.match(r.stderr, /the failing tests point at no function of the workspace's source files/);
    assert.match(r.stderr, /no candidate was verified for the functions the failing tests run/);
    assert.deepEqual(readdir(out), []);
  });

  it('exits 2 outside a git repository', async () => {
    const dir = temp('review-bot-nogit-');
    const r = await runBot(dir, temp('review-bot-out-'));
    assert.equal(r.exitCode, 2);
    assert.match(r.stderr, /is not a git repository/);
  });

  it('appends the request\'s samples to the results file, which stats reads', async () => {
    const repo = makeRepo(true);
    const results = join(temp('review-bot-res-'), 'results.jsonl');
    const r = await runBot(repo, temp('review-bot-out-'), { VERIFIED_FIX_RESULTS: results });
    assert.equal(r.exitCode, 0, r.stderr);
    const lines = readFileSync(results, 'utf8').split('\n').filter(Boolean);
    assert.ok(lines.length > 0, 'the results file has this request\'s samples');
    const stats = JSON.parse(execFileSync(process.execPath, [cliPath, 'stats', results, '--k', '1', '--json'], { encoding: 'utf8' }));
    assert.equal(stats.tasks, 1);
    assert.equal(stats.samples, lines.length);
    assert.equal(git(repo, 'status', '--porcelain'), '');
  });
});

function readdir(dir: string): string[] {
  return execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).split('\n').filter(Boolean);
}
