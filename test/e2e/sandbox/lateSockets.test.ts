// Sockets bound after a run started (#25 item 6, what was left): the listing at the run's start cannot mask them, so
// the folders daemons bind in (/var/tmp, a container VM's folder under home) are empty and private in the run.
// The candidate signals from its copy that it started, the test binds its listeners only then, and tells it so.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sandboxOfKind } from '../../../src/core/sandbox/detect';
import type { BackendChoice } from '../../../src/core/contract/choices';
import { sandboxArgs } from '../../unit/helpers/cli';
import type { CliResult } from '../../unit/helpers/cli';
import { cliPath, repoRoot } from '../../unit/helpers/paths';
import { newMarker } from '../../unit/helpers/processes';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const marker = newMarker();
const outside = mkdtempSync(join(tmpdir(), 'vf-late-sockets-'));
chmodSync(outside, 0o755);
const servers: Server[] = [];
after(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  remove(outside);
});

const mochaBin = join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
const project = {
  'package.json': '{"name": "answer", "private": true}\n',
  'src/answer.js': 'function answer() { return 41; }\nmodule.exports = { answer };\n',
  'test/answer.test.js': "const assert = require('node:assert');\nconst { answer } = require('../src/answer');\nit('answer', () => assert.strictEqual(answer(), 42));\n",
};

/** Right, and at load: says it started, waits until told the listeners are up, then tries each. */
function lateConnector(paths: readonly string[]): string {
  const probe = "const s = require('net').connect(process.argv[1]); s.on('connect', () => s.destroy()); s.on('error', () => {});";
  // Beside itself: under unshare the copy's top folder is read-only.
  return `const fs = require('fs'); fs.writeFileSync(__dirname + '/started-${marker}', ''); const until = Date.now() + 120000; ` +
    `while (!fs.existsSync(__dirname + '/bound-${marker}') && Date.now() < until) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50); ` +
    `for (const p of ${JSON.stringify(paths)}) { try { require('child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(probe)}, p], { stdio: 'ignore', timeout: 10000 }); } catch {} } ` +
    'function answer() { return 42; }';
}

/** The folder (under `root`) holding `name`, once a run wrote it there; undefined if the CLI ended first. */
async function waitForFile(root: string, name: string, running: () => boolean): Promise<string | undefined> {
  const find = (dir: string): string | undefined => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    if (entries.some((e) => e.name === name)) return dir;
    for (const e of entries) if (e.isDirectory() && e.name !== 'node_modules') {
      const found = find(join(dir, e.name));
      if (found) return found;
    }
    return undefined;
  };
  while (running()) {
    const found = find(root);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

async function socketsBoundLater(backend: BackendChoice): Promise<void> {
  const tempRoot = join(outside, `temp-${backend}`);
  const home = join(outside, `home-${backend}`);
  const colima = join(home, '.colima', 'default');
  mkdirSync(colima, { recursive: true });
  mkdirSync(tempRoot, { recursive: true });
  const varTmp = mkdtempSync(join('/var/tmp', 'vf-late-'));
  chmodSync(varTmp, 0o755);
  const sockets = [join(varTmp, `daemon-${marker}.sock`), join(colima, 'docker.sock')];
  const ws = makeWorkspace(project, { git: true });
  const candidates = join(outside, `late-${backend}.json`);
  writeFileSync(candidates, JSON.stringify([lateConnector(sockets)]));
  const args = ['fix', '--workspace', ws, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidates, '--test', `node ${mochaBin} test/answer.test.js`];
  args.push('--timeout', '120', '--confirm-runs', '1', '--k', '1', '--isolation', 'copy', '--no-baseline', ...sandboxArgs(backend), '--strength', 'off', '--behaviour', 'off', '--json');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, VERIFIED_FIX_TMPDIR: tempRoot };
  delete env.NODE_TEST_CONTEXT;
  let connections = 0;
  let done = false;
  try {
    const child = spawn(process.execPath, [cliPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<CliResult>((resolve) => child.on('close', (code) => ((done = true), resolve({ exitCode: code ?? 99, stdout, stderr }))));
    const copy = await waitForFile(tempRoot, `started-${marker}`, () => !done);
    assert.ok(copy, 'the candidate started in a copy under the temp root');
    for (const path of sockets) {
      const server = createServer((socket) => (connections++, socket.destroy()));
      await new Promise<void>((resolve) => server.listen(path, resolve));
      chmodSync(path, 0o777);
      servers.push(server);
    }
    writeFileSync(join(copy, `bound-${marker}`), '');
    const r = await ended;
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { verified: number[] }).verified, [0], r.stderr);
    assert.equal(connections, 0, 'no socket bound after the run started was reached');
    assert.match(r.stderr, /a private \/tmp and \/var\/tmp/, 'the protections line says so');
  } finally {
    remove(ws, varTmp);
  }
}

describe('sockets bound after the run started', async () => {
  const varTmp = existsSync('/var/tmp') && spawnSync('test', ['-d', '/var/tmp', '-a', '!', '-L', '/var/tmp']).status === 0;
  for (const backend of ['bwrap', 'unshare'] as const) {
    const works = await sandboxOfKind(backend);
    it(`${backend}: a listener bound in /var/tmp or ~/.colima after the run began is out of reach`, { skip: (!works && `${backend} does not work here`) || (!varTmp && 'no /var/tmp folder') }, () => socketsBoundLater(backend));
  }
});
