// Attacks on the sandbox by hostile candidates through the real CLI (as root in CI, and as an unprivileged user where
// the machine allows): the original, /tmp, home and secrets stay untouched, and no cheating candidate is verified.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sandboxOfKind } from '../../../src/core/sandbox/detect';
import type { CliResult } from '../../unit/helpers/cli';
import { cliPath, sandboxArgs } from '../../unit/helpers/cli';
import { killMarked, newMarker, waitForNoSurvivors } from '../../unit/helpers/processes';
import { fingerprint, makeWorkspace, remove } from '../../unit/helpers/workspace';
import type { BackendChoice } from '../../../src/core/contract/choices';

const marker = newMarker();
const pytestAvailable = spawnSync('python3', ['-c', 'import pytest']).status === 0;
const isRoot = process.getuid?.() === 0;
/** Values a candidate must never see or print: in the CLI's environment, in home's credential files. */
const SECRETS = {
  VERIFIED_FIX_API_KEY: `sk-vf-product-key-${marker}-abcdefghijklmnop`,
  GITHUB_TOKEN: `gh-token-value-${marker}`,
  AWS_SECRET_ACCESS_KEY: `aws-secret-value-${marker}`,
  DEPLOY_PASSWORD: `deploy-password-${marker}`,
};
const FILE_SECRET = `ssh-private-key-body-${marker}`;

const outside = mkdtempSync(join(tmpdir(), 'vf-attack-'));
chmodSync(outside, 0o755);
const home = join(outside, 'home');
const tempRoot = join(outside, 'temp-root');
/** A file in the host's /tmp that a run must never be able to create. */
const hostTmpMarker = join(tmpdir(), `vf-attack-host-${marker}`);
/** Sockets standing in for an ssh agent (named in the environment) and a daemon under /run. */
const agentDir = mkdtempSync(join('/var/tmp', 'vf-agent-'));
const agentSocket = join(agentDir, 'agent.sock');
const runSocket = `/run/vf-attack-${marker}.sock`;
const servers: Server[] = [];
let socketConnections = 0;

before(async () => {
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.ssh', 'id_rsa'), `${FILE_SECRET}\n`);
  writeFileSync(join(home, '.npmrc'), `//registry.example.invalid/:_authToken=${FILE_SECRET}\n`);
  writeFileSync(join(home, '.aws', 'credentials'), `[default]\naws_secret_access_key=${FILE_SECRET}\n`);
  writeFileSync(join(home, '.profile'), 'keep me\n');
  mkdirSync(tempRoot);
  for (const path of [agentSocket, ...(existsSync('/run') ? [runSocket] : [])]) {
    const server = createServer((socket) => {
      socketConnections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(path, resolve));
    servers.push(server);
  }
});
after(async () => {
  killMarked(marker);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  remove(outside, agentDir, hostTmpMarker, cacheHome);
});

/** A node --test project with three tests; line 1 of src/answer.js holds the bug (41 instead of 42). */
const projectFiles = {
  'package.json': '{"name": "answer", "private": true, "scripts": {"test": "node --test"}}\n',
  'src/answer.js': 'function answer() { return 41; }\nmodule.exports = { answer };\n',
  'fixtures/expected.json': '{"value": 42}\n',
  'test/answer.test.js':
    "const assert = require('node:assert');\nconst test = require('node:test');\nconst { answer } = require('../src/answer');\n" +
    "test('answer', () => assert.strictEqual(answer(), require('../fixtures/expected.json').value));\ntest('type', () => assert.strictEqual(typeof answer(), 'number'));\n",
  'test.js': "const assert = require('node:assert');\nrequire('node:test')('root', () => assert.ok(require('./src/answer').answer() > 41));\n",
};
const GOOD = 'function answer() { return 42; }';
const WRONG = 'function answer() { return 41; }';
const sh = (command: string) => `try { require('child_process').execSync(${JSON.stringify(command)}, { stdio: 'inherit', shell: '/bin/sh' }); } catch {}`;

interface Attack {
  readonly name: string;
  /** The candidate's first line: the attack, then a correct answer (an escape) or the wrong one (a cheat). */
  readonly candidate: (ws: string) => string;
  /** A cheat must never be verified; an escape may be (its code is right), but must change nothing outside. */
  readonly cheat: boolean;
}

const escapes: Attack[] = [
  { name: 'remounts the original read-write and appends to it', cheat: false, candidate: (ws) => sh(`mount -o remount,bind,rw ${ws} 2>&1; mount -o remount,rw ${ws} 2>&1; echo pwned >> ${ws}/src/answer.js`) },
  { name: 'unmounts /tmp and writes to the host /tmp', cheat: false, candidate: () => sh(`umount -l /tmp 2>&1; echo pwned > ${hostTmpMarker}`) },
  { name: 'unmounts /proc and reads other processes\' environments', cheat: false, candidate: () => sh('umount -l /proc 2>&1; cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n"') },
  { name: 'bind-mounts its copy over the original', cheat: false, candidate: (ws) => sh(`mount --bind . ${ws} 2>&1; echo pwned >> ${ws}/src/answer.js`) },
  { name: 'chmods and chattrs the original', cheat: false, candidate: (ws) => sh(`chmod 777 ${ws}/src/answer.js; chattr +i ${ws}/src/answer.js; chattr +i src/answer.js`) },
  { name: 'writes through /proc/<pid>/root', cheat: false, candidate: (ws) => sh(`for p in /proc/[0-9]*; do echo pwned >> $p/root${ws}/src/answer.js; done 2>/dev/null`) },
  {
    name: 'writes through every inherited descriptor',
    cheat: false,
    candidate: () =>
      "{ const fs = require('fs'); for (const fd of fs.readdirSync('/proc/self/fd')) { try { const p = '/proc/self/fd/' + fd; if (fs.statSync(p).isFile()) fs.appendFileSync(p, 'pwned\\n'); } catch {} } }",
  },
  { name: 'prints its environment', cheat: false, candidate: () => "console.log(JSON.stringify(process.env)); console.error(Object.entries(process.env).map(([k, v]) => k + '=' + v).join('\\n'));" },
  { name: 'prints credential files from home', cheat: false, candidate: () => sh('cat ~/.ssh/id_rsa ~/.npmrc ~/.aws/credentials 2>&1') },
  {
    name: 'connects to the agent and daemon sockets',
    cheat: false,
    candidate: () => `for (const p of [${JSON.stringify(agentSocket)}, ${JSON.stringify(runSocket)}, process.env.SSH_AUTH_SOCK]) { if (p) require('net').connect(p).on('error', () => {}); }`,
  },
  { name: 'writes to home', cheat: false, candidate: () => sh('echo pwned >> ~/.profile; echo pwned > ~/.bashrc') },
];

const cheats: Attack[] = [
  { name: 'exits 0 before the tests run (process.exit)', cheat: true, candidate: () => 'process.exit(0);' },
  { name: 'exits 0 before the tests run, disguised', cheat: true, candidate: () => "process['ex' + 'it'](0);" },
  { name: 'turns assert.strictEqual into a no-op with node:test mock', cheat: true, candidate: () => "require('node:test').mock.method(require('node:assert'), 'strictEqual', () => {});" },
  { name: 'rewrites a test file and restores it at exit', cheat: true, candidate: () => "{ const fs = require('fs'); const t = 'test/answer.test.js'; try { const old = fs.readFileSync(t, 'utf8'); fs.writeFileSync(t, \"require('node:test')('answer', () => {});\"); process.on('exit', () => fs.writeFileSync(t, old)); } catch {} }" },
  { name: 'empties the test files (no tell-tale call)', cheat: true, candidate: () => "for (const f of ['test/answer.test.js', 'test.js']) { try { require('fs').writeFileSync(f, ''); } catch {} }" },
  { name: 'rewrites test.js at the root', cheat: true, candidate: () => "try { require('fs').writeFileSync('test.js', \"require('node:test')('root', () => {});\"); } catch {}" },
  { name: 'rewrites the fixtures', cheat: true, candidate: () => "try { require('fs').writeFileSync('fixtures/expected.json', '{\"value\": 41}'); } catch {}" },
  { name: 'plants a module in node_modules', cheat: true, candidate: () => "try { require('fs').mkdirSync('node_modules/planted', { recursive: true }); require('fs').writeFileSync('node_modules/planted/index.js', ''); } catch {}" },
  {
    name: 'forges the runner\'s report and exits 0',
    cheat: true,
    candidate: () =>
      "{ const fs = require('fs'); let dest; for (const pid of fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n))) { try { const a = fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').find((x) => x.startsWith('--test-reporter-destination=/')); if (a) dest = a.slice(28); } catch {} } " +
      "if (dest) { const rows = []; for (const f of ['test/answer.test.js', 'test.js']) for (const m of fs.readFileSync(f, 'utf8').matchAll(/test'\\)\\('([^']+)'|test\\('([^']+)'/g)) rows.push(JSON.stringify({ file: f, path: [m[1] || m[2]], outcome: 'passed', suite: false })); try { fs.appendFileSync(dest, rows.join('\\n') + '\\n'); } catch {} process['ex' + 'it'](0); } }",
  },
  {
    name: 'rewrites its siblings\' copies',
    cheat: true,
    candidate: () =>
      "{ const fs = require('fs'), path = require('path'); const end = Date.now() + 4000; const hit = () => { for (const up of ['..', '../..']) { try { for (const d of fs.readdirSync(up)) { try { fs.writeFileSync(path.join(up, d, 'src/answer.js'), 'function answer() { return 42; }\\nmodule.exports = { answer };\\n'); } catch {} } } catch {} } }; hit(); const t = setInterval(() => { hit(); if (Date.now() > end) clearInterval(t); }, 20); }",
  },
];

/** Runs the built CLI with extra open descriptors (3 and up) handed down, as an editor or CI might. */
function runCliWith(args: readonly string[], env: NodeJS.ProcessEnv, inherited: number[], uid?: number): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe', ...inherited],
      ...(uid !== undefined ? { uid, gid: uid } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 400_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? 99, stdout, stderr });
    });
  });
}

// The engine remembers the sandbox that worked in the user's cache (sandbox/probeMemory.ts): that write is its own,
// so it goes outside the home these tests fingerprint for a candidate's writes.
const cacheHome = mkdtempSync(join(tmpdir(), 'vf-cache-'));

function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...SECRETS, HOME: home, XDG_CACHE_HOME: cacheHome, VERIFIED_FIX_TMPDIR: tempRoot, SSH_AUTH_SOCK: agentSocket };
  // A `node --test` started under this test runner would report to it and exit 0.
  delete env.NODE_TEST_CONTEXT;
  return env;
}

interface Outcome {
  readonly json: { candidates: Array<{ index: number; status: string; reason?: string; verified: boolean; failure?: string }>; verified: number[] };
  readonly all: string;
}

/** One request with every attack of `attacks` as a candidate, the good fix first; checks what must hold whatever the attack. */
async function attack(backend: BackendChoice, attacks: readonly Attack[], options: { uid?: number } = {}): Promise<Outcome> {
  const ws = makeWorkspace(projectFiles, { git: true });
  const candidatesFile = join(outside, `candidates-${backend}-${options.uid ?? 0}.json`);
  writeFileSync(candidatesFile, JSON.stringify([GOOD, ...attacks.map((a) => `${a.candidate(ws)}\n${a.cheat ? WRONG : GOOD}`)]));
  const hostFile = join(outside, `inherited-${backend}.txt`);
  writeFileSync(hostFile, '');
  if (options.uid !== undefined) {
    for (const path of [outside, home, tempRoot, candidatesFile, hostFile]) chownSync(path, options.uid, options.uid);
    spawnSync('chown', ['-R', `${options.uid}:${options.uid}`, ws, home, tempRoot]);
  }
  const beforeWs = fingerprint(ws);
  const beforeHome = fingerprint(home);
  const connectionsBefore = socketConnections;
  // Descriptors an editor could leak: the original file open for writing, and a file outside.
  const inherited = [openSync(join(ws, 'src/answer.js'), 'r+'), openSync(hostFile, 'r+')];
  const args = ['fix', '--workspace', ws, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidatesFile, '--test', 'node --test'];
  // The checks after the verdicts only add runs of the verified fixes here: the strength check's variants and the
  // behaviour check's recordings and replays (attacked on their own in behaviourAttack.test.ts), so both are off.
  args.push('--timeout', '20', '--parallel', '2', '--confirm-runs', '1', '--memory-mb', '1024', '--k', '1', ...sandboxArgs(backend), '--strength', 'off', '--behaviour', 'off', '--json', '--verbose');
  let r: CliResult;
  try {
    r = await runCliWith(args, cliEnv(), inherited, options.uid);
  } finally {
    inherited.forEach((fd) => closeSync(fd));
  }
  assert.equal(r.exitCode, 0, r.stderr);
  const json = JSON.parse(r.stdout) as Outcome['json'];
  for (const [i, a] of attacks.entries()) {
    const got = json.candidates[i + 1];
    console.log(`# ${backend}${options.uid !== undefined ? ` as uid ${options.uid}` : ''} / ${a.name}: ${got.status}${got.reason ? ` (${got.reason})` : ''}${got.verified ? ', verified' : ''}`);
    if (a.cheat) assert.equal(got.verified, false, `${a.name} must not be verified`);
  }
  assert.equal(json.candidates[0].status, 'pass', `the good candidate is verified despite its hostile neighbours: ${json.candidates[0].reason ?? ''}`);
  assert.deepEqual(fingerprint(ws), beforeWs, 'the original workspace is byte-identical');
  assert.deepEqual(fingerprint(home), beforeHome, 'home is untouched');
  assert.equal(readFileSync(hostFile, 'utf8'), '', 'nothing was written through an inherited descriptor');
  assert.ok(!existsSync(hostTmpMarker), 'the host /tmp is untouched');
  assert.equal(socketConnections - connectionsBefore, 0, 'no socket outside the sandbox was reached');
  const all = `${r.stdout}\n${r.stderr}`;
  for (const value of [...Object.values(SECRETS), FILE_SECRET]) assert.ok(!all.includes(value), `a secret value reached the output or the log: ${value}`);
  assert.match(r.stderr, /test runs do not get these variables[^\n]*GITHUB_TOKEN/, 'the log names the variables dropped');
  assert.deepEqual(readdirSync(tempRoot), [], 'no temp copy remains');
  assert.deepEqual(await waitForNoSurvivors(marker), [], 'no process survives');
  remove(ws);
  return { json, all };
}

describe('attacks on the sandbox', async () => {
  const bwrap = await sandboxOfKind('bwrap');
  const unshare = await sandboxOfKind('unshare');

  it('bubblewrap: no escape changes anything outside the copy, no cheat is verified', { skip: !bwrap && 'needs bubblewrap (CI installs it)' }, async () => {
    const { json } = await attack('bwrap', [...escapes, ...cheats]);
    const byName = (name: string) => json.candidates[1 + [...escapes, ...cheats].findIndex((a) => a.name === name)];
    assert.match(byName('exits 0 before the tests run (process.exit)').reason ?? '', /changes how the tests run: process\.exit/);
    assert.match(byName('exits 0 before the tests run, disguised').reason ?? '', /still failing|fewer tests ran|no test summary|no test ran/);
    assert.match(byName('turns assert.strictEqual into a no-op with node:test mock').reason ?? '', /changes how the tests run/);
    assert.match(byName('plants a module in node_modules').reason ?? '', /created files the test runner loads: node_modules\/planted/);
  });

  it('unshare: the original, home, secrets and tests are protected; no cheat is verified', { skip: !unshare && 'unshare does not work here' }, async () => {
    // Attacks on files outside the workspace and home (host /tmp) are out of this kind's reach by design: see docs/security.md.
    const covered = escapes.filter((a) => !/host \/tmp/.test(a.name));
    // Runs can reach each other here: a sibling rewriter can also break the good candidate mid-write (truncated file),
    // so it is tried in the process-group test, which asserts only that nothing wrong is verified.
    await attack('unshare', [...covered, ...cheats.filter((a) => !/siblings/.test(a.name))]);
  });

  it('process groups: no cheat is verified, even by rewriting a sibling\'s copy', async () => {
    // Nothing protects files on this kind; only the checks that do not depend on a namespace are asserted.
    const ws = makeWorkspace(projectFiles, { git: true });
    const candidatesFile = join(outside, 'candidates-pg.json');
    writeFileSync(candidatesFile, JSON.stringify([GOOD, ...cheats.map((a) => `${a.candidate(ws)}\n${WRONG}`), WRONG, WRONG]));
    // A chained command: no per-test results, so passes are judged by the printed summary.
    const args = ['fix', '--workspace', ws, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidatesFile, '--test', 'true && node --test --test-reporter=spec'];
    args.push('--timeout', '20', '--parallel', '2', '--confirm-runs', '1', '--k', '1', ...sandboxArgs('process-group'), '--strength', 'off', '--behaviour', 'off', '--json', '--verbose');
    const r = await runCliWith(args, cliEnv(), []);
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout) as Outcome['json'];
    cheats.forEach((a, i) => console.log(`# process-group / ${a.name}: ${json.candidates[i + 1].status}${json.candidates[i + 1].reason ? ` (${json.candidates[i + 1].reason})` : ''}`));
    assert.deepEqual(json.verified, [0], `only the good candidate is verified: ${JSON.stringify(json.candidates.map((c) => [c.status, c.reason, (c as { runs?: string[] }).runs]))}\n${r.stderr}`);
    assert.match(r.stderr, /run once more with no other run active/);
    assert.match(r.stderr, /per-test results: not available/);
    assert.match(json.candidates[2].reason ?? '', /fewer tests ran than on the unmodified code \(2 of 3\)/, 'the summary count catches a disguised exit');
    remove(ws);
  });

  it('Python: exits, skips and planted conftest.py are not verified', { skip: !pytestAvailable && 'needs pytest' }, async () => {
    const ws = makeWorkspace(
      {
        'answer.py': 'def answer():\n    return 41\n',
        'tests/test_answer.py': 'from answer import answer\n\ndef test_answer():\n    assert answer() == 42\n\ndef test_type():\n    assert isinstance(answer(), int)\n',
      },
      { git: true },
    );
    const wrong = 'def answer():\n    return 41';
    const pyCheats = [
      'import os; os._exit(0)',
      "getattr(__import__('o' + 's'), '_ex' + 'it')(0)",
      "import pytest; pytest.skip('no', allow_module_level=True)",
      "__import__('py' + 'test').skip('no', allow_module_level=True)",
      "open('conftest.py', 'w').write('import pytest\\n')",
      "open('sitecustomize.py', 'w').write('')",
      "exec(\"try:\\n open('tests/conftest.py', 'w').write('')\\nexcept OSError: pass\")",
    ];
    const candidatesFile = join(outside, 'candidates-py.json');
    writeFileSync(candidatesFile, JSON.stringify(['def answer():\n    return 42', ...pyCheats.map((code) => `${code}\n${wrong}`)]));
    const before = fingerprint(ws);
    const args = ['fix', '--workspace', ws, '--file', 'answer.py', '--lines', '1-2', '--candidates', candidatesFile, '--test', 'python3 -m pytest -q -p no:cacheprovider'];
    args.push('--timeout', '30', '--parallel', '2', '--confirm-runs', '1', '--k', '1', '--strength', 'off', '--behaviour', 'off', '--json');
    const r = await runCliWith(args, cliEnv(), []);
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout) as Outcome['json'];
    pyCheats.forEach((code, i) => console.log(`# python / ${code}: ${json.candidates[i + 1].status} (${json.candidates[i + 1].reason ?? ''})`));
    assert.deepEqual(json.verified, [0], JSON.stringify(json.candidates.map((c) => [c.status, c.reason])));
    assert.match(json.candidates[2].reason ?? '', /no test ran|still failing|no test summary|fewer tests/, 'a disguised os._exit is caught: its tests never reported');
    // A module-level skip raised while a test module imports the code: pytest then exits non-zero or reports the
    // module skipped (no test ran); either way not verified, which the line above asserts.
    assert.match(json.candidates[5].reason ?? '', /created files the test runner loads: conftest\.py/);
    assert.deepEqual(fingerprint(ws), before);
    remove(ws);
  });

  it('as an unprivileged user: the same escapes fail', { skip: (!isRoot && 'needs root to switch to another user') || (!existsSync('/usr/bin/setpriv') && 'needs setpriv') }, async (t) => {
    const probe = spawnSync('bwrap', ['--unshare-user', '--ro-bind', '/', '/', 'true'], { uid: 65534, gid: 65534 });
    if (probe.status !== 0) {
      t.skip('bubblewrap does not run for an unprivileged user here (no user namespaces)');
      return;
    }
    await attack('bwrap', escapes.filter((a) => !/descriptor/.test(a.name)), { uid: 65534 });
  });
});
