// Round-2 attacks through the real CLI, in every mode that claims to protect against them (as root and as uid 65534
// where the machine allows): poisoned parents, secrets the name list misses, a relative PATH, sabotaged reused copies.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sandboxOfKind } from '../../../src/core/sandbox/detect';
import { killMarked, newMarker } from '../../unit/helpers/processes';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';
import type { BackendChoice } from '../../../src/core/contract/choices';
import { GOOD, NOBODY, WRONG, attackFolders, baseEnv, containerSkip, mochaCommand, mochaProject, modeArgs, runCliAs } from './attackCli';
import type { Json } from './attackCli';

const marker = newMarker();
const { outside, ownedFolder, removeAll } = attackFolders('vf-round2-');
after(() => {
  killMarked(marker);
  removeAll();
});
/** Why the container cases are skipped here, if they are (Podman, the test image, a cached mocha). */
const noContainer = containerSkip();

const PLANT = `verified-fix-plant-${marker}`;
/**
 * Plants a mocha configuration that disables `strictEqual` (and a conftest.py, and a .pyc cache folder) in every folder
 * above its copy, and a marker up to `/` and in `/tmp`: a later run whose runner searches upward would load it.
 */
const planter =
  "{ const fs = require('fs'), path = require('path'); const poison = \"const a = require('node:as' + 'sert'); a['strict' + 'Equal'] = () => {}; module.exports = {};\\n\"; " +
  `const mark = ${JSON.stringify(PLANT)}; ` +
  `const top = ${JSON.stringify(outside)}; ` +
  // Configuration files only up to the test's own folder (standing in for /tmp): other users of this machine must not
  // get them if the attack works; a harmless marker file goes on up to /.
  "for (let d = path.dirname(process.cwd()); ; d = path.dirname(d)) { const files = d.startsWith(top) ? [['.mocharc.js', poison], ['conftest.py', 'import pytest\\n'], [mark, mark]] : [[mark, mark]]; for (const [f, t] of files) { try { fs.writeFileSync(path.join(d, f), t); } catch {} } if (d === '/') break; } " +
  "try { fs.mkdirSync('/tmp/.pycache', { recursive: true }); fs.writeFileSync('/tmp/.pycache/' + mark, mark); fs.writeFileSync('/tmp/' + mark, mark); } catch {} }";

/** Every place the planter tried, on the host: none may hold its file afterwards. */
function plantedOnHost(copyParent: string): string[] {
  const found: string[] = [];
  for (let d = copyParent; ; d = dirname(d)) {
    if (existsSync(join(d, PLANT))) found.push(join(d, PLANT));
    if (d === '/') break;
  }
  for (const p of [join(tmpdir(), PLANT), join(tmpdir(), '.pycache', PLANT)]) if (existsSync(p)) found.push(p);
  return found;
}

function cleanPlants(from: string): void {
  for (let d = from; ; d = dirname(d)) {
    if (existsSync(join(d, PLANT)) && d.startsWith(outside)) for (const f of ['.mocharc.js', 'conftest.py']) rmSync(join(d, f), { force: true });
    rmSync(join(d, PLANT), { force: true });
    if (d === '/') break;
  }
  rmSync(join(tmpdir(), PLANT), { force: true });
  rmSync(join(tmpdir(), '.pycache', PLANT), { force: true });
}

async function poisonedParents(backend: BackendChoice, uid?: number): Promise<void> {
  const tag = `${backend}-${uid ?? 0}`;
  const tempRoot = ownedFolder(`temp-${tag}`, uid);
  const home = ownedFolder(`home-${tag}`, uid);
  const ws = makeWorkspace(mochaProject, { git: true });
  const test = mochaCommand(backend, ws);
  if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, ws]);
  const candidates = join(ownedFolder(`cand-${tag}`, uid), 'c.json');
  const fix = (list: string[]) => {
    writeFileSync(candidates, JSON.stringify(list));
    if (uid !== undefined) spawnSync('chown', [`${uid}:${uid}`, candidates]);
    const args = ['fix', '--workspace', ws, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidates, '--test', test];
    args.push('--timeout', '30', '--parallel', '1', '--confirm-runs', '1', '--k', '1', ...modeArgs(backend), '--isolation', 'reuse', '--strength', 'off', '--json');
    return runCliAs(args, baseEnv(tempRoot, home), { uid });
  };
  try {
    const first = await fix([`${planter}\n${WRONG}`, WRONG, GOOD]);
    assert.equal(first.exitCode, 0, first.stderr);
    const json = JSON.parse(first.stdout) as Json;
    console.log('# first', JSON.stringify(json.candidates.map((c) => [c.status, c.reason])));
    assert.deepEqual(json.verified, [2], `a planted parent configuration must not verify the wrong candidate: ${JSON.stringify(json.candidates.map((c) => [c.status, c.reason]))}`);
    const second = await fix([WRONG, GOOD]);
    assert.equal(second.exitCode, 0, second.stderr);
    assert.deepEqual((JSON.parse(second.stdout) as Json).verified, [1], 'the next request is not poisoned');
    assert.deepEqual(plantedOnHost(tempRoot), [], 'nothing was planted above any copy or in the host /tmp');
  } finally {
    cleanPlants(tempRoot);
    remove(ws);
  }
}

describe('round 2: poisoned parents', async () => {
  const bwrap = await sandboxOfKind('bwrap');
  const unshare = await sandboxOfKind('unshare');
  for (const [backend, works] of [['unshare', unshare], ['bwrap', bwrap]] as const) {
    it(`${backend}: a file planted above the copy reaches no later run, and lands nowhere on the host`, { skip: !works && `${backend} does not work here` }, () => poisonedParents(backend));
    it(`${backend} as uid 65534: the same`, { skip: (!works && `${backend} does not work here`) || (NOBODY === undefined && 'needs root to switch user') }, () => poisonedParents(backend, NOBODY));
  }
  // Root only: the CLI as uid 65534 would need a rootless Podman set up for that user.
  it('container: a file planted above the copy lands in the container only, and reaches no later run', { skip: noContainer }, () => poisonedParents('container'));
});


const SECRET = `s3cr3t${marker}`;
/** Secrets under names no name list catches, and values that carry a credential whatever the name. */
const unusualVariables: Record<string, string> = {
  SQLALCHEMY_DATABASE_URI: `postgresql://app:${SECRET}@db.internal/app`,
  PIP_INDEX_URL: `https://ci:${SECRET}@pypi.internal/simple`,
  HTTPS_PROXY: `http://proxyuser:${SECRET}@proxy.internal:3128`,
  RAILS_MASTER_KEY: `a1b2c3d4e5f6${SECRET}`,
  GITHUB_PAT: `pat${SECRET}0123456789`,
  DEPLOY_KEY: `dk${SECRET}0123456789`,
  CONNECTION_STRING: `DefaultEndpointsProtocol=https;AccountName=x;AccountKey=${SECRET}==`,
  GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${SECRET}`,
  SOME_TOOL_SETTING: `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n-----END OPENSSH PRIVATE KEY-----`,
};
/** Credential files under home (relative) and one named by KUBECONFIG outside it. */
const homeFiles = ['.pgpass', '.my.cnf', '.vault-token', '.bash_history', '.gitconfig', '.config/github-copilot/hosts.json', '.cache/huggingface/token', '.claude.json'];

/** A candidate that is right only if it cannot see the secret (in `variable`, or in one of `files`). */
function blindCandidate(variable: string | undefined, files: readonly string[]): string {
  return (
    // The secret is put together at run time: the candidate's own text is in the output.
    `const SAW = (() => { const fs = require('fs'); const m = ['s3cr3t', ${JSON.stringify(marker)}].join(''); ` +
    `if (${JSON.stringify(variable ?? '')} && (process.env[${JSON.stringify(variable ?? '')}] || '').includes(m)) return true; ` +
    `for (const p of ${JSON.stringify(files)}) { try { if (fs.readFileSync(p, 'utf8').includes(m)) return true; } catch {} } return false; })();\n` +
    'function answer() { return SAW ? 41 : 42; }'
  );
}

async function secretsOutOfReach(backend: BackendChoice, uid?: number): Promise<void> {
  const tag = `secrets-${backend}-${uid ?? 0}`;
  const tempRoot = ownedFolder(`temp-${tag}`, uid);
  const home = ownedFolder(`home-${tag}`, uid);
  for (const rel of homeFiles) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), `token=${SECRET}\n`);
  }
  const kubeconfig = join(ownedFolder(`kube-${tag}`, uid), 'config');
  writeFileSync(kubeconfig, `token: ${SECRET}\n`);
  const ws = makeWorkspace({ ...mochaProject, '.gitignore': '.env\n', '.env': `API=${SECRET}\n` }, { git: true });
  spawnSync('git', ['config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${SECRET}`], { cwd: ws });
  const test = mochaCommand(backend, ws);
  if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, ws, home, tempRoot]);
  const fileTargets = backend === 'process-group' ? [] : [...homeFiles.map((rel) => join(home, rel)), kubeconfig, join(ws, '.env'), join(ws, '.git', 'config')];
  const cases: Array<[string, string]> = [
    ...Object.keys(unusualVariables).map((name): [string, string] => [name, blindCandidate(name, [])]),
    ...fileTargets.map((path): [string, string] => [path, blindCandidate(undefined, [path])]),
  ];
  const candidates = join(ownedFolder(`cand-${tag}`, uid), 'c.json');
  writeFileSync(candidates, JSON.stringify(cases.map(([, code]) => code)));
  if (uid !== undefined) spawnSync('chown', [`${uid}:${uid}`, candidates]);
  const args = ['fix', '--workspace', ws, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidates, '--test', test];
  // A generous limit (no candidate hangs): on a loaded machine a blind candidate's run must end by its verdict.
  args.push('--timeout', '300', '--parallel', '2', '--confirm-runs', '1', '--k', '1', ...modeArgs(backend), '--strength', 'off', '--json');
  try {
    const r = await runCliAs(args, { ...baseEnv(tempRoot, home), ...unusualVariables, KUBECONFIG: kubeconfig }, { uid });
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout) as Json;
    const seen = cases.flatMap(([what], i) => (json.candidates[i].verified ? [] : [`${what}: ${json.candidates[i].status} ${json.candidates[i].reason ?? ''}`]));
    assert.deepEqual(seen, [], 'a test run saw these secrets');
    assert.ok(!`${r.stdout}${r.stderr}`.includes(SECRET), 'no secret value reaches the output or the log');
  } finally {
    remove(ws);
  }
}

describe('round 2: secrets the name list misses', async () => {
  const bwrap = await sandboxOfKind('bwrap');
  const unshare = await sandboxOfKind('unshare');
  for (const [backend, works] of [['bwrap', bwrap], ['unshare', unshare], ['process-group', true]] as const) {
    it(`${backend}: no unusual variable, credential file, .env or .git/config token reaches a run`, { skip: !works && `${backend} does not work here` }, () => secretsOutOfReach(backend));
    it(`${backend} as uid 65534: the same`, { skip: (!works && `${backend} does not work here`) || (NOBODY === undefined && 'needs root to switch user') }, () => secretsOutOfReach(backend, NOBODY));
  }
  it('container: no unusual variable, credential file, .env or .git/config token reaches a run', { skip: noContainer }, () => secretsOutOfReach('container'));
});

/** Tools the engine starts, planted in the workspace's ./node_modules/.bin (a relative PATH entry) to run unsandboxed. */
const PLANTED_TOOLS = ['bwrap', 'unshare', 'setpriv', 'prlimit', 'git', 'mount', 'mkdir', 'sed', 'chattr', 'podman', 'docker', 'tar', 'kill', 'sleep'];

async function relativePathTools(backend: BackendChoice): Promise<void> {
  const tripwire = join(outside, `tripwire-${backend}`);
  const files: Record<string, string> = { ...mochaProject };
  for (const tool of PLANTED_TOOLS) files[`node_modules/.bin/${tool}`] = `#!/bin/sh\necho ${tool} >> ${tripwire}\nexec /usr/bin/${tool} "$@"\n`;
  const ws = makeWorkspace(files, { git: true });
  for (const tool of PLANTED_TOOLS) chmodSync(join(ws, 'node_modules/.bin', tool), 0o755);
  const candidates = join(outside, `tools-${backend}.json`);
  writeFileSync(candidates, JSON.stringify([GOOD]));
  const args = ['fix', '--workspace', ws, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidates, '--test', mochaCommand(backend, ws)];
  args.push('--timeout', '30', '--confirm-runs', '1', '--k', '1', ...modeArgs(backend), '--strength', 'off', '--json');
  const env = { ...baseEnv(ownedFolder(`temp-tools-${backend}`), ownedFolder(`home-tools-${backend}`)), PATH: `./node_modules/.bin:${process.env.PATH ?? ''}` };
  const r = await runCliAs(args, env, { cwd: ws });
  try {
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as Json).verified, [0], r.stderr);
    assert.ok(!existsSync(tripwire), `the repository's own tools ran outside the sandbox: ${existsSync(tripwire) ? readFileSync(tripwire, 'utf8') : ''}`);
  } finally {
    remove(ws, tripwire);
  }
}

describe('round 2: a relative PATH entry', async () => {
  const bwrap = await sandboxOfKind('bwrap');
  const unshare = await sandboxOfKind('unshare');
  for (const [backend, works] of [['bwrap', bwrap], ['unshare', unshare], ['process-group', true]] as const) {
    it(`${backend}: ./node_modules/.bin supplies none of the tools the engine starts`, { skip: !works && `${backend} does not work here` }, () => relativePathTools(backend));
  }
  it('container: ./node_modules/.bin supplies neither podman nor any other tool the engine starts', { skip: noContainer }, () => relativePathTools('container'));
});

/** Candidates that, once loaded, turn their own file in the reused copy into something a write would hang on or fail at. */
const saboteurs = {
  fifo: "try { require('fs').unlinkSync(__filename); require('child_process').execFileSync('mkfifo', [__filename]); } catch {}",
  folder: "try { const fs = require('fs'); fs.unlinkSync(__filename); fs.mkdirSync(__filename); fs.writeFileSync(__filename + '/x', ''); } catch {}",
};

async function sabotagedReuse(backend: BackendChoice): Promise<void> {
  const ws = makeWorkspace(mochaProject, { git: true });
  const candidates = join(outside, `reuse-${backend}.json`);
  writeFileSync(candidates, JSON.stringify([`${saboteurs.fifo}\n${WRONG}`, GOOD, `${saboteurs.folder}\n${WRONG}`, `${GOOD} // again`]));
  const args = ['fix', '--workspace', ws, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidates, '--test', mochaCommand(backend, ws)];
  args.push('--timeout', '30', '--total-timeout', '60', '--parallel', '1', '--confirm-runs', '1', '--k', '1', ...modeArgs(backend), '--isolation', 'reuse', '--strength', 'off', '--json');
  try {
    const r = await runCliAs(args, baseEnv(ownedFolder(`temp-reuse-${backend}`), ownedFolder(`home-reuse-${backend}`)), { timeoutMs: 120_000 });
    assert.equal(r.exitCode, 0, `the CLI ends on its own (exit ${r.exitCode}): ${r.stderr}`);
    const json = JSON.parse(r.stdout) as Json;
    assert.deepEqual(json.verified, [1, 3], `the correct candidates after a saboteur are verified: ${JSON.stringify(json.candidates.map((c) => [c.status, c.reason]))}`);
  } finally {
    remove(ws);
  }
}

describe('round 2: sabotaged reused copies', async () => {
  const bwrap = await sandboxOfKind('bwrap');
  const unshare = await sandboxOfKind('unshare');
  for (const [backend, works] of [['unshare', unshare], ['process-group', true], ['bwrap', bwrap]] as const) {
    it(`${backend}: a target turned into a FIFO or a folder neither hangs the CLI nor fails the next candidate`, { skip: !works && `${backend} does not work here` }, () => sabotagedReuse(backend));
  }
  it('container: a target turned into a FIFO or a folder neither hangs the CLI nor fails the next candidate', { skip: noContainer }, () => sabotagedReuse('container'));
});
