// Round-3 attacks through the real CLI (#25's remaining items), in every mode that claims to protect against them, as
// root and as uid 65534 where the machine allows: sockets no name list knows, and the smaller items of the list.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sandboxOfKind } from '../../../src/core/sandbox/detect';
import { appendResults } from '../../../src/core/statistics/resultsFile';
import { sandboxArgs } from '../../unit/helpers/cli';
import { repoRoot } from '../../unit/helpers/paths';
import { killMarked, newMarker } from '../../unit/helpers/processes';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';
import type { BackendChoice } from '../../../src/core/contract/choices';
import { GOOD, NOBODY, attackFolders, baseEnv, containerSkip, mochaCommand, mochaProject, modeArgs, runCliAs } from './attackCli';
import type { Json } from './attackCli';

const marker = newMarker();
const isRoot = process.getuid?.() === 0;
const { ownedFolder, removeAll } = attackFolders('vf-round3-');
const servers: Server[] = [];
after(async () => {
  killMarked(marker);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  removeAll();
});

function fixArgs(ws: string, candidates: string, backend: BackendChoice, extra: readonly string[] = []): string[] {
  const args = ['fix', '--workspace', ws, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidates, '--test', mochaCommand(backend, ws)];
  args.push('--timeout', '30', '--parallel', '1', '--confirm-runs', '1', '--k', '1', ...modeArgs(backend), '--strength', 'off', '--behaviour', 'off', '--json', ...extra);
  return args;
}

function candidatesFile(tag: string, list: readonly string[], uid?: number): string {
  const file = join(ownedFolder(`cand-${tag}`, uid), 'c.json');
  writeFileSync(file, JSON.stringify(list));
  if (uid !== undefined) spawnSync('chown', [`${uid}:${uid}`, file]);
  return file;
}

/** Listeners that no variable names, where daemons really put them: /var/tmp, and a home folder (Colima's docker.sock). */
async function listen(path: string, onConnection: () => void): Promise<void> {
  const server = createServer((socket) => {
    onConnection();
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  chmodSync(path, 0o777); // reachable by uid 65534 too, as a careless daemon's socket is
  servers.push(server);
}

/** A candidate that tries each socket, waiting for each attempt to end: it is right, only the attempts are the attack. */
function connector(paths: readonly string[]): string {
  const probe = "const s = require('net').connect(process.argv[1]); s.on('connect', () => s.destroy()); s.on('error', () => {});";
  return `for (const p of ${JSON.stringify(paths)}) { try { require('child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(probe)}, p], { stdio: 'ignore', timeout: 10000 }); } catch {} }\n${GOOD}`;
}

async function unlistedSockets(backend: BackendChoice, uid?: number): Promise<void> {
  const tag = `sockets-${backend}-${uid ?? 0}`;
  const home = ownedFolder(`home-${tag}`, uid);
  const varTmp = mkdtempSync(join('/var/tmp', 'vf-round3-'));
  chmodSync(varTmp, 0o755);
  const colima = join(home, '.colima', 'default');
  mkdirSync(colima, { recursive: true });
  let connections = 0;
  const sockets = [join(varTmp, `daemon-${marker}.sock`), join(colima, 'docker.sock')];
  for (const path of sockets) await listen(path, () => connections++);
  const ws = makeWorkspace(mochaProject, { git: true });
  if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, ws, home]);
  try {
    const r = await runCliAs(fixArgs(ws, candidatesFile(tag, [connector(sockets)], uid), backend), baseEnv(ownedFolder(`temp-${tag}`, uid), home), { uid });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as Json).verified, [0], r.stderr);
    assert.equal(connections, 0, 'no listening socket outside the run was reached');
    assert.match(r.stderr, /every listening socket/, 'the protections line says what is covered');
  } finally {
    remove(ws, varTmp);
  }
}

describe('round 3: sockets no name list knows', async () => {
  const bwrap = await sandboxOfKind('bwrap');
  const unshare = await sandboxOfKind('unshare');
  for (const [backend, works] of [['bwrap', bwrap], ['unshare', unshare]] as const) {
    it(`${backend}: a listener under /var/tmp or in a home folder is not reachable`, { skip: !works && `${backend} does not work here` }, () => unlistedSockets(backend));
    it(`${backend} as uid 65534: the same`, { skip: (!works && `${backend} does not work here`) || (NOBODY === undefined && 'needs root to switch user') }, () => unlistedSockets(backend, NOBODY));
  }
  it('container: the same listeners are not reachable', { skip: containerSkip() }, () => unlistedSockets('container'));
});

const pytestAvailable = spawnSync('python3', ['-c', 'import pytest']).status === 0;
/** Planted in the folder above its copy (where process-group runs can write): a runner that searches upward loads it. */
const parentPlanter = (files: Record<string, string>) =>
  `{ const fs = require('fs'), path = require('path'); for (const [f, t] of Object.entries(${JSON.stringify(files)})) { try { fs.writeFileSync(path.join(path.dirname(process.cwd()), f), t); } catch {} } }`;
const mochaPoison = { '.mocharc.js': "const a = require('node:as' + 'sert'); a['strict' + 'Equal'] = () => {}; module.exports = {};\n" };
const pytestPoison = {
  'pytest.ini': '[pytest]\n',
  'conftest.py': 'import pytest\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = "passed"\n',
};
const pythonProject = {
  'answer.py': 'def answer():\n    return 41\n',
  'tests/test_answer.py': 'from answer import answer\n\ndef test_answer():\n    assert answer() == 42\n',
};

async function plantedParentConfig(runner: 'mocha' | 'pytest', backend: BackendChoice, uid?: number): Promise<void> {
  const tag = `parents-${runner}-${backend}-${uid ?? 0}`;
  const python = runner === 'pytest';
  const ws = makeWorkspace(python ? pythonProject : { ...mochaProject, '.gitignore': 'node_modules\n' }, { git: true });
  // The runner as npm would start it (./node_modules/.bin/mocha), so the engine knows it is mocha.
  if (!python) symlinkSync(join(repoRoot, 'node_modules'), join(ws, 'node_modules'));
  if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, ws]);
  const js = [`${parentPlanter(mochaPoison)}\nfunction answer() { return 41; }`, 'function answer() { return 41; }', GOOD];
  const py = [`import os\nfor f, t in ${JSON.stringify(Object.entries(pytestPoison))}:\n    open(os.path.join(os.path.dirname(os.getcwd()), f), 'w').write(t)\ndef answer():\n    return 41`, 'def answer():\n    return 41', 'def answer():\n    return 42'];
  const args = python
    ? ['fix', '--workspace', ws, '--file', 'answer.py', '--lines', '1-2', '--candidates', candidatesFile(tag, py, uid), '--test', 'python3 -m pytest -q -p no:cacheprovider']
    : ['fix', '--workspace', ws, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidatesFile(tag, js, uid), '--test', './node_modules/.bin/mocha test/answer.test.js'];
  args.push('--timeout', '60', '--parallel', '1', '--confirm-runs', '1', '--k', '1', ...sandboxArgs(backend), '--isolation', 'reuse', '--strength', 'off', '--behaviour', 'off', '--json', '--verbose');
  try {
    const r = await runCliAs(args, baseEnv(ownedFolder(`temp-${tag}`, uid), ownedFolder(`home-${tag}`, uid)), { uid });
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout) as Json;
    assert.deepEqual(json.verified, [2], `a configuration planted above the copy must not verify a wrong candidate: ${JSON.stringify(json.candidates.map((c) => [c.status, c.reason]))}\n${r.stderr}`);
    assert.match(r.stderr, /runner configuration: only the copy's/, 'the log says the search is bounded');
  } finally {
    remove(ws);
  }
}

describe('round 3: runner configuration planted above the copy', () => {
  // Process-group runs can write above their copy (bubblewrap and unshare seal it: round2.test.ts): the flags bound it.
  it('process-group: a .mocharc.js above the copy is not read (mocha --no-config)', () => plantedParentConfig('mocha', 'process-group'));
  it('process-group: a pytest.ini and conftest.py above the copy are not read (--confcutdir, -c)', { skip: !pytestAvailable && 'needs pytest' }, () => plantedParentConfig('pytest', 'process-group'));
  it('process-group as uid 65534: mocha, the same', { skip: NOBODY === undefined && 'needs root to switch user' }, () => plantedParentConfig('mocha', 'process-group', NOBODY));
});

describe('round 3: links out of the workspace', () => {
  for (const link of ['..', '../..', '/', 'node_modules/../..']) {
    it(`--link ${link} is refused before anything runs`, async () => {
      const ws = makeWorkspace(mochaProject, { git: true });
      try {
        const args = [...fixArgs(ws, candidatesFile(`link-${link.replace(/\W/g, '_')}`, [GOOD]), 'process-group'), '--isolation', 'copy', '--link', link];
        const r = await runCliAs(args, baseEnv(ownedFolder('temp-link'), ownedFolder('home-link')));
        assert.equal(r.exitCode, 2, `exit 2 (refused), got ${r.exitCode}: ${r.stderr}`);
        assert.match(r.stderr, /not a folder inside the workspace/);
      } finally {
        remove(ws);
      }
    });
  }
});

describe('round 3: the results file in a shared folder', () => {
  const line = '{"task_id":"t","passed":true}\n';
  it('--results refuses to write through a symbolic link another user left there', async () => {
    const victim = join(ownedFolder('results-link'), 'victim.txt');
    writeFileSync(victim, 'keep\n');
    const planted = join(ownedFolder('results-link'), 'r.jsonl');
    symlinkSync(victim, planted);
    await assert.rejects(appendResults(planted, line), /symbolic link/);
    assert.equal(readFileSync(victim, 'utf8'), 'keep\n');
  });
  it("--results refuses another user's file", { skip: !isRoot && 'needs root to give a file away' }, async () => {
    const theirs = join(ownedFolder('results-theirs'), 'r.jsonl');
    writeFileSync(theirs, '');
    chownSync(theirs, 65534, 65534);
    await assert.rejects(appendResults(theirs, line), /belongs to another user/);
    assert.equal(readFileSync(theirs, 'utf8'), '');
  });
  it('a lock held by another process does not turn the request into an error: the lines are appended, with a warning', async () => {
    const file = join(ownedFolder('results-lock'), 'r.jsonl');
    mkdirSync(`${file}.lock`);
    // Kept fresh, as a live holder does (a stale lock would be taken over).
    const keep = setInterval(() => utimesSync(`${file}.lock`, new Date(), new Date()), 500);
    try {
      const note = await appendResults(file, line);
      assert.match(note ?? '', /was held by another process/);
      assert.equal(readFileSync(file, 'utf8'), line);
    } finally {
      clearInterval(keep);
    }
  });
});
