// The container backend on a real Podman (or Docker): verdicts, stop, network, memory, read-only mounts, sweep and the remote path.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { after, before, describe, it } from 'node:test';
import type { RunSpec, SandboxBackend } from '../../../src/core/sandbox/backend';
import { createContainerBackend, parseJsonc, sweepContainers } from '../../../src/core/sandbox/container';
import type { ContainerEngine } from '../../../src/core/sandbox/container';
import { createCopy, listWorkspace } from '../../../src/core/isolation/workspaceCopy';
import { runCli } from '../../unit/helpers/cli';
import { killMarked, newMarker, waitForNoSurvivors } from '../../unit/helpers/processes';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const IMAGE = process.env.VERIFIED_FIX_IMAGE || 'localhost/verified-fix-test:1';
const marker = newMarker();
/** Podman, as CI installs it; VERIFIED_FIX_CONTAINER_ENGINE=docker runs the same cases against a Docker daemon. */
const ENGINE: ContainerEngine = process.env.VERIFIED_FIX_CONTAINER_ENGINE === 'docker' ? 'docker' : 'podman';
const engine = spawnSync(ENGINE, ['version', '--format', ENGINE === 'podman' ? '{{.Version}}' : '{{.Server.Version}}'], { encoding: 'utf8' });
const imageThere = engine.status === 0 && spawnSync(ENGINE, ['image', 'inspect', IMAGE], { stdio: 'ignore' }).status === 0;
const SKIP = engine.status !== 0 ? `${ENGINE} is not installed or does not answer here (run .ci/install-containers.sh)` : !imageThere ? `the image ${IMAGE} is missing (bash scripts/container-image.sh builds it)` : undefined;
const removeArgs = ENGINE === 'podman' ? ['rm', '-f', '-t', '0'] : ['rm', '-f'];
if (SKIP) console.error(`\n*** CONTAINER TESTS SKIPPED: ${SKIP} ***\n`);

const workspace = makeWorkspace({
  'package.json': '{"name":"ws"}\n',
  'src.js': 'module.exports = 41;\n',
  'tests/a.test.js': 'console.log("test file");\n',
  'node_modules/dep/index.js': 'module.exports = "dep";\n',
  '.devcontainer/devcontainer.json': `// comment\n{ "image": "${IMAGE}", /* more */ "x": [1,], }\n`,
});
const tempRoot = makeTempRoot();
const original = fingerprint(workspace);
let local: SandboxBackend | undefined;
let remote: SandboxBackend | undefined;
let copyDir = '';
let reportDir = '';

before(async () => {
  if (SKIP) return;
  const listing = await listWorkspace(workspace, ['node_modules'], []);
  copyDir = await createCopy(listing, tempRoot, 'copy');
  reportDir = join(tempRoot, 'report');
  mkdirSync(reportDir);
  // No image given: the workspace's devcontainer.json names it.
  const made = await createContainerBackend({ engine: ENGINE, workspace, hostEnv: process.env });
  assert.ok(!('problem' in made), 'problem' in made ? made.problem : '');
  local = made;
  const madeRemote = await createContainerBackend({ engine: ENGINE, image: IMAGE, workspace, remote: true, hostEnv: process.env });
  assert.ok(!('problem' in madeRemote), 'problem' in madeRemote ? madeRemote.problem : '');
  remote = madeRemote;
});

after(() => {
  killMarked(marker);
  // A failed assertion must not leave containers behind for the next run to trip over.
  if (!SKIP) for (const id of ourContainers().split('\n').filter(Boolean)) spawnSync(ENGINE, [...removeArgs, id]);
  remove(workspace, tempRoot);
});

/** The backend, or undefined once the test is marked skipped (t.skip does not end the test by itself). */
function need(t: TestContext, backend: SandboxBackend | undefined): SandboxBackend | undefined {
  if (SKIP) {
    t.skip(SKIP);
    return undefined;
  }
  assert.ok(backend, 'the backend was not created');
  return backend;
}

function spec(command: string, overrides: Partial<RunSpec> = {}): RunSpec {
  return {
    command,
    copyDir,
    readOnlyPaths: [workspace],
    readOnlyInCopy: [join(copyDir, 'tests')],
    hiddenFolders: [tempRoot],
    writablePaths: [reportDir],
    allowNetwork: false,
    memoryMB: 256,
    env: { ...process.env, VF_SPACES: ' a b ', VF_MULTI: 'one\ntwo' },
    hostEnv: process.env,
    ...overrides,
  };
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
  overMemory: boolean;
  timedOut: boolean;
}

/** What the runner does, minimally: spawn, started(), stop() on timeout, overMemory() and release() after exit. */
async function run(backend: SandboxBackend, runSpec: RunSpec, timeoutMs = 60_000): Promise<Outcome> {
  const prepared = await backend.prepare(runSpec);
  // In the copy, as the executor does: podman's monitor (conmon) writes an empty `oom` file in its working directory
  // when cgroup v1 kills the run, which from the test runner's cwd would land in the repository.
  const child = spawn(prepared.file, [...prepared.args], { cwd: runSpec.copyDir, env: prepared.env, stdio: ['ignore', 'pipe', 'pipe'] });
  prepared.started(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void prepared.stop();
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  const overMemory = await prepared.overMemory();
  await prepared.release();
  return { code, stdout, stderr, overMemory, timedOut };
}

function ourContainers(): string {
  return execFileSync(ENGINE, ['ps', '-a', '-q', '--filter', `label=verified-fix.owner=${process.pid}`], { encoding: 'utf8' }).trim();
}

describe(`container backend (local ${ENGINE})`, () => {
  it('passes and fails with the command exit code and output, links into the workspace resolved', async (t) => {
    const backend = need(t, local);
    if (!backend) return;
    const pass = await run(backend, spec('node -e "console.log(require(\'./node_modules/dep\'), require(\'./src.js\'))"; printf "[%s]" "$VF_SPACES"; echo "$VF_MULTI" | wc -l'));
    assert.equal(pass.code, 0, pass.stderr);
    assert.match(pass.stdout, /dep 41\n\[ a b \]2/);
    const fail = await run(backend, spec('echo broken >&2; exit 3'));
    assert.equal(fail.code, 3);
    assert.match(fail.stderr, /broken/);
    assert.equal(fail.overMemory, false);
    assert.equal(ourContainers(), '');
    assert.match(backend.protections({ allowNetwork: false, memoryMB: 256 }).name, new RegExp(`container \\(${ENGINE}, image `));
  });

  it('stops a hung run by name and leaves no container and no process', async (t) => {
    const backend = need(t, local);
    if (!backend) return;
    const started = Date.now();
    const hung = await run(backend, spec(`trap "" TERM; (setsid sleep 300.${marker} &); sleep 300.${marker}`), 4000);
    assert.ok(hung.timedOut);
    // The run would sleep 300 s: stopping it in well under half of that is what counts, whatever the load.
    assert.ok(Date.now() - started < 150_000, `stopping took ${Date.now() - started} ms`);
    assert.deepEqual(await waitForNoSurvivors(marker, 5000), []);
    assert.equal(ourContainers(), '');
  });

  it('refuses connections to a listener on the host', async (t) => {
    const backend = need(t, local);
    if (!backend) return;
    const server = createServer((socket) => socket.end('hello\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const probe = `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', (e) => { console.log(e.code); process.exit(7); })"`;
      const result = await run(backend, spec(probe));
      assert.equal(result.code, 7, result.stdout + result.stderr);
      assert.match(result.stdout, /ECONNREFUSED/);
      const interfaces = await run(backend, spec('ls /sys/class/net'));
      assert.equal(interfaces.stdout.trim(), 'lo');
    } finally {
      server.close();
    }
  });

  it('kills a run over its memory cap and says so', async (t) => {
    const backend = need(t, local);
    if (!backend) return;
    // Rootless podman on cgroup v1 ignores --memory (it warns); the backend must then say the cap does not hold.
    if (backend.protections({ allowNetwork: false, memoryMB: 128 }).memory.scope === 'none') return t.skip('this engine ignores memory limits here (rootless on cgroup v1), and the backend says so');
    const before = new Set(readdirSync(process.cwd()));
    const result = await run(backend, spec('python3 -c "b = bytearray(512 * 1024 * 1024); print(len(b))"', { memoryMB: 128 }));
    assert.notEqual(result.code, 0);
    assert.equal(result.overMemory, true, `exit ${result.code}: ${result.stderr}`);
    assert.equal(ourContainers(), '');
    assert.deepEqual(readdirSync(process.cwd()).filter((name) => !before.has(name)), [], 'the OOM kill left files in the test runner’s cwd');
  });

  it('writes only the copy and the writable folders; the workspace and the tests are read-only', async (t) => {
    const backend = need(t, local);
    if (!backend) return;
    const script = [
      'echo new > made.txt && echo copy-ok',
      `echo r > ${reportDir}/result.txt && echo report-ok`,
      // The shell reports a failed redirection itself: its message is caught around the whole command.
      '{ echo x >> tests/a.test.js; } 2>&1 | grep -q "Read-only file system" && echo tests-erofs',
      `{ echo x >> ${workspace}/src.js; } 2>&1 | grep -q "Read-only file system" && echo ws-erofs`,
      '{ echo x > node_modules/dep/index.js; } 2>&1 | grep -q "Read-only file system" && echo dep-erofs',
      `ls -A ${tempRoot} | tr "\\n" " "`,
    ].join('; ');
    const result = await run(backend, spec(script));
    assert.equal(result.code, 0, result.stderr);
    for (const word of ['copy-ok', 'report-ok', 'tests-erofs', 'ws-erofs', 'dep-erofs']) assert.match(result.stdout, new RegExp(word), result.stdout);
    // The temp root shows only the paths mounted from it: the sibling folders a run could read are not there.
    assert.deepEqual(result.stdout.trim().split('\n').pop()?.trim().split(' ').sort(), ['copy-' + copyDir.split('copy-')[1], 'report'].sort());
    assert.equal(readFileSync(join(copyDir, 'made.txt'), 'utf8'), 'new\n');
    assert.equal(readFileSync(join(reportDir, 'result.txt'), 'utf8'), 'r\n');
    assert.deepEqual(fingerprint(workspace), original);
  });

  it('hides credentials that lie inside a mounted folder (a workspace that is home)', async (t) => {
    const backend = need(t, local);
    if (!backend) return;
    const home = makeWorkspace({ '.ssh/id_ed25519': 'PRIVATE KEY', '.npmrc': '//registry/:_authToken=SECRET', 'code.js': '' });
    try {
      const result = await run(backend, spec(`cat ${home}/.ssh/id_ed25519 ${home}/.npmrc; ls -A ${home}/.ssh; test -f ${home}/code.js && echo code-seen`, { readOnlyPaths: [workspace, home], hostEnv: { ...process.env, HOME: home } }));
      assert.doesNotMatch(result.stdout, /PRIVATE KEY|SECRET/);
      assert.match(result.stdout, /code-seen/);
    } finally {
      remove(home);
    }
  });

  it('sweeps a container left by a dead process of this machine', async (t) => {
    if (!need(t, local)) return;
    const dead = spawnSync('true').pid;
    const labels = ['--label', `verified-fix.owner=${dead}`, '--label', `verified-fix.host=${hostname()}`, '--label', 'verified-fix.session=gone'];
    const id = execFileSync(ENGINE, ['create', '--pull=never', ...labels, IMAGE, 'true'], { encoding: 'utf8' }).trim();
    const alive = execFileSync(ENGINE, ['create', '--pull=never', '--label', `verified-fix.owner=1`, '--label', `verified-fix.host=${hostname()}`, IMAGE, 'true'], { encoding: 'utf8' }).trim();
    try {
      assert.ok((await sweepContainers(ENGINE)) >= 1);
      assert.notEqual(spawnSync(ENGINE, ['container', 'inspect', id], { stdio: 'ignore' }).status, 0, 'the dead process’s container is still there');
      assert.equal(spawnSync(ENGINE, ['container', 'inspect', alive], { stdio: 'ignore' }).status, 0, 'a live process’s container was removed');
    } finally {
      // One at a time: podman 4.3's `rm -f` stops at a name already gone, leaving the ones after it.
      for (const container of [id, alive]) spawnSync(ENGINE, [...removeArgs, container]);
    }
  });
});

describe('container backend (remote path: files copied in)', () => {
  it('passes and fails with the files copied in, tests read-only, reports copied back, nothing left', async (t) => {
    const backend = need(t, remote);
    if (!backend) return;
    const pass = await run(backend, spec(`node -e "console.log(require('./node_modules/dep'), require('./src.js'))" && echo x >> tests/a.test.js || echo tests-refused; echo out > ${reportDir}/remote.txt; id -u`));
    assert.equal(pass.code, 0, pass.stderr);
    assert.match(pass.stdout, /dep 41\ntests-refused\n65534/);
    assert.equal(readFileSync(join(reportDir, 'remote.txt'), 'utf8'), 'out\n');
    const fail = await run(backend, spec('test -f package.json && exit 4'));
    assert.equal(fail.code, 4, fail.stderr);
    assert.equal(ourContainers(), '');
    assert.deepEqual(fingerprint(workspace), original);
    assert.match(backend.protections({ allowNetwork: false, memoryMB: 0 }).name, /remote engine/);
  });
});

describe('devcontainer.json', () => {
  it('reads JSON with comments and trailing commas', () => {
    assert.deepEqual(parseJsonc('// c\n{ "image": "a//b", /* c */ "s": "x/*y*/", "l": [1, 2,], }'), { image: 'a//b', s: 'x/*y*/', l: [1, 2] });
  });

  it('says what to set when no image is named', async (t) => {
    if (engine.status !== 0) return t.skip(`${ENGINE} is not installed here`);
    const bare = makeWorkspace({ 'a.txt': '' });
    try {
      const made = await createContainerBackend({ engine: ENGINE, workspace: bare, hostEnv: process.env });
      assert.deepEqual(made, { problem: 'no container image: set verifiedFix.container.image (or --container-image)' });
      const missing = await createContainerBackend({ engine: ENGINE, image: 'localhost/not-there:0', workspace: bare, hostEnv: process.env });
      assert.ok('problem' in missing && /scripts\/container-image\.sh/.test(missing.problem));
    } finally {
      remove(bare);
    }
  });
});

describe('verified-fix fix --sandbox container', () => {
  it('verifies a candidate in a container, test by test, and leaves nothing behind', async (t) => {
    if (SKIP) return t.skip(SKIP);
    const project = makeWorkspace(
      {
        'package.json': '{"name": "p", "private": true, "scripts": {"test": "node --test"}}\n',
        'src/answer.js': 'function answer() { return 41; }\nmodule.exports = { answer };\n',
        'test/answer.test.js': "const assert = require('node:assert');\nconst test = require('node:test');\nconst { answer } = require('../src/answer');\ntest('answer', () => assert.strictEqual(answer(), 42));\ntest('type', () => assert.strictEqual(typeof answer(), 'number'));\n",
      },
      { git: true },
    );
    const before = fingerprint(project);
    const anyOfOurs = () => execFileSync(ENGINE, ['ps', '-a', '-q', '--filter', 'label=verified-fix.owner'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).sort();
    const containersBefore = anyOfOurs();
    const candidates = join(tempRoot, 'candidates.json');
    writeFileSync(candidates, JSON.stringify(['function answer() { return 42; }', 'function answer() { return 43; }']));
    const env: NodeJS.ProcessEnv = { ...process.env, VERIFIED_FIX_TMPDIR: makeTempRoot() };
    delete env.NODE_TEST_CONTEXT;
    const r = await runCli(
      ['fix', '--workspace', project, '--file', 'src/answer.js', '--lines', '1-1', '--candidates', candidates, '--sandbox', 'container', '--container-engine', ENGINE, '--container-image', IMAGE, '--parallel', '2', '--k', '1', '--json'],
      { env, timeoutMs: 300_000 },
    );
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.verified, [0]);
    assert.equal(json.baseline.perTest, true);
    assert.equal(json.candidates[1].stage, 'failing-tests');
    assert.match(r.stderr, /container \(\w+, image /, 'the protections line names the engine and the image');
    assert.deepEqual(fingerprint(project), before);
    assert.deepEqual(anyOfOurs(), containersBefore, 'no container is left');
    remove(project, env.VERIFIED_FIX_TMPDIR as string);
  });
});
