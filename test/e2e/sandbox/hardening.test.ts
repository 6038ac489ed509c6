// The hardening that needs no malice to matter: link targets, secrets in prompts and logs, bounded timers, 20,000
// duplicates, a killed CLI, planted git settings, whole-run memory caps and copies that cannot be removed.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runFix } from '../../../src/core/engine/runFix';
import type { FixEvent, FixRequest } from '../../../src/core/contract/fixRequest';
import type { Logger } from '../../../src/core/base/logger';
import { createFileProvider } from '../../../src/core/providers/fileProvider';
import { createOpenAiCompatibleProvider } from '../../../src/core/providers/openaiCompatible';
import { detectSandbox } from '../../../src/core/sandbox/detect';
import { cliPath, runCli } from '../../unit/helpers/cli';
import type { FakeOpenAiServer } from '../../unit/helpers/fakeOpenAiServer';
import { inTurn, startFakeOpenAiServer } from '../../unit/helpers/fakeOpenAiServer';
import { killMarked, newMarker, processesWithMarker, waitForNoSurvivors } from '../../unit/helpers/processes';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const tempRoot = makeTempRoot();
const outside = mkdtempSync(join(tmpdir(), 'vf-hardening-'));
const marker = newMarker();
before(() => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
});
after(() => {
  killMarked(marker);
  remove(tempRoot, outside);
});

const isolation: FixRequest['isolation'] = { linkedFolders: ['node_modules'], excludes: [], allowNetwork: false, memoryMB: 0 };

function request(workspace: string, relativePath: string, candidates: string[], overrides: Partial<FixRequest> = {}): FixRequest {
  const text = readFileSync(join(workspace, relativePath), 'utf8');
  return {
    workspace,
    relativePath,
    start: 0,
    end: text.split('\n')[0].length,
    testCommand: 'sh check.sh',
    samples: candidates.length,
    
    // Generous: no test here waits for a run's time limit, and a loaded machine must not turn a pass into a timeout.
    testTimeoutMs: 300_000,
    totalTimeoutMs: 600_000,
    parallel: 2,
    baselineCheck: false,
    confirmRuns: 1,
    strengthCheck: 'off',
    isolation,
    provider: createFileProvider(candidates),
    ...overrides,
  };
}

const cliEnv = (): NodeJS.ProcessEnv => ({ ...process.env, VERIFIED_FIX_TMPDIR: tempRoot });

describe('a target that a write would carry out of the copy', () => {
  const realOutside = join(outside, 'real.txt');
  const cases: Array<{ name: string; setup: (ws: string) => void; file: string; message: RegExp }> = [
    { name: 'a committed symlink to a file outside', setup: (ws) => symlinkSync(realOutside, join(ws, 'link.txt')), file: 'link.txt', message: /is a symbolic link/ },
    { name: 'a file under a symlinked folder', setup: (ws) => symlinkSync(outside, join(ws, 'linked')), file: 'linked/real.txt', message: /under linked, a symbolic link/ },
    {
      name: 'a file inside a linked dependency folder',
      setup: (ws) => {
        mkdirSync(join(ws, 'node_modules', 'dep'), { recursive: true });
        writeFileSync(join(ws, 'node_modules', 'dep', 'index.js'), 'old\n');
      },
      file: 'node_modules/dep/index.js',
      message: /inside node_modules/,
    },
  ];
  for (const c of cases) {
    it(`refuses ${c.name} with a clear message and changes nothing`, async () => {
      writeFileSync(realOutside, 'old\n');
      const ws = makeWorkspace({ 'check.sh': 'exit 0\n' }, { git: true });
      c.setup(ws);
      const before = fingerprint(ws);
      const r = await runCli(['fix', '--workspace', ws, '--file', c.file, '--lines', '1-1', '--candidates', writeCandidates(['new']), '--test', 'sh check.sh'], { env: cliEnv() });
      assert.equal(r.exitCode, 2, r.stderr);
      assert.match(r.stderr, c.message);
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
      assert.equal(readFileSync(realOutside, 'utf8'), 'old\n');
      assert.deepEqual(fingerprint(ws), before);
      remove(ws);
    });
  }
});

let candidateFiles = 0;
function writeCandidates(candidates: string[]): string {
  const path = join(outside, `candidates-${candidateFiles++}.json`);
  writeFileSync(path, JSON.stringify(candidates));
  return path;
}

describe('secrets', () => {
  let server: FakeOpenAiServer;
  before(async () => {
    server = await startFakeOpenAiServer(inTurn({ kind: 'answer', contents: ['```\nbad\n```'] }));
  });
  after(() => server.close());

  it('never reach a verdict, the log, an event or a model prompt, even when the tests print them', async () => {
    const value = `service-token-${marker}-0123456789`;
    const keyShaped = `ghp_${'a1B2'.repeat(9)}`;
    // The test prints a workspace file that holds the same value as a secret variable, and a key-shaped string.
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'config/token.txt': `${value}\n${keyShaped}\n`, 'check.sh': 'cat config/token.txt; echo "env: $MY_SERVICE_TOKEN"; test "$(head -n1 value.txt)" = good\n' });
    process.env.MY_SERVICE_TOKEN = value;
    const logged: string[] = [];
    const logger: Logger = { trace: (m) => logged.push(m), info: (m) => logged.push(m), warn: (m) => logged.push(m), error: (m) => logged.push(String(m)) };
    const events: FixEvent[] = [];
    try {
      const provider = createOpenAiCompatibleProvider({ endpoint: server.endpoint, model: 'm', maxRetries: 0, requestTimeoutMs: 300_000, maxConcurrentRequests: 1 });
      const result = await runFix(request(ws, 'value.txt', [], { provider, samples: 2, baselineCheck: true, logger }), (e) => events.push(e));
      assert.equal(result.baseline?.status, 'fail');
      assert.match(result.baseline?.output ?? '', /\[redacted\]/, 'the secret was printed, and redacted');
      assert.match(result.baseline?.output ?? '', /env: \n|env: $/m, 'the variable itself never reached the run');
      assert.ok(server.requests.length > 0, 'the model was asked');
      const everything = JSON.stringify([result, events, logged, server.requests.map((r) => r.body)]);
      for (const secret of [value, keyShaped]) assert.ok(!everything.includes(secret), `${secret} leaked`);
      assert.ok(logged.some((line) => /do not get these variables.*MY_SERVICE_TOKEN/.test(line)), 'the log names the dropped variable');
    } finally {
      delete process.env.MY_SERVICE_TOKEN;
      remove(ws);
    }
  });

  it('a variable named in passEnv reaches the tests; the product key never does', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'test "$NEEDED_TOKEN" = yes && test -z "$VERIFIED_FIX_API_KEY" && test "$(cat value.txt)" = good\n' });
    Object.assign(process.env, { NEEDED_TOKEN: 'yes', VERIFIED_FIX_API_KEY: 'sk-never-passed-0000000000000000' });
    try {
      const result = await runFix(request(ws, 'value.txt', ['good'], { isolation: { ...isolation, passEnv: ['NEEDED_TOKEN', 'VERIFIED_FIX_API_KEY'] } }));
      assert.equal(result.candidates[0].verdict.status, 'pass', result.candidates[0].verdict.output);
    } finally {
      delete process.env.NEEDED_TOKEN;
      delete process.env.VERIFIED_FIX_API_KEY;
      remove(ws);
    }
  });
});

describe('robustness', () => {
  it('bounds durations instead of letting a timer overflow fire at once', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'exit 0\n' });
    const r = await runCli(['fix', '--workspace', ws, '--file', 'value.txt', '--lines', '1-1', '--candidates', writeCandidates(['good']), '--timeout', '2147484'], { env: cliEnv() });
    assert.equal(r.exitCode, 2, r.stderr);
    assert.match(r.stderr, /--timeout must be a number of seconds from 1 to 2147483, got 2147484/);
    remove(ws);
  });

  it('handles 20,000 identical candidates (one run, every duplicate judged by it)', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'test "$(cat value.txt)" = good\n' });
    const result = await runFix(request(ws, 'value.txt', Array.from({ length: 20_000 }, () => 'good')));
    assert.equal(result.samples, 20_000);
    assert.equal(result.passed, 20_000);
    assert.deepEqual(result.verified, [0]);
    assert.equal(result.candidates.filter((c) => c.duplicateOf === 0).length, 19_999);
    remove(ws);
  });

  it('a killed CLI leaves no test process behind, even without a namespace', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': `sleep 300.${marker} & sleep 301.${marker}\n` });
    const child = spawn(process.execPath, [cliPath, 'fix', '--workspace', ws, '--file', 'value.txt', '--lines', '1-1', '--candidates', writeCandidates(['good']), '--test', 'sh check.sh', '--sandbox', 'process-group', '--allow-process-group-as-root', '--no-baseline'], { env: cliEnv(), stdio: 'ignore' });
    const deadline = Date.now() + 120_000;
    while (processesWithMarker(marker).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(processesWithMarker(marker).length, 2, 'the test started');
    child.kill('SIGKILL');
    // The watchdog notices within a second or two that the CLI is gone (far longer on a saturated machine); without
    // it the tests would sleep 300 s.
    assert.deepEqual(await waitForNoSurvivors(marker, 120_000), [], 'no test process survives the CLI');
    remove(ws);
  });

  it('runs git with the workspace\'s command-running settings disabled', async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'test "$(cat value.txt)" = good\n' }, { git: true });
    const planted = join(outside, `fsmonitor-ran-${marker}`);
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${planted}; false`], { cwd: ws });
    const result = await runFix(request(ws, 'value.txt', ['good']));
    assert.equal(result.candidates[0].verdict.status, 'pass', result.candidates[0].verdict.output);
    assert.ok(!existsSync(planted), 'the planted fsmonitor command did not run');
    remove(ws);
  });

  it('caps a run as a whole: shared memory and files in the private /tmp count', async (t) => {
    if ((await detectSandbox()).protections({ allowNetwork: false, memoryMB: 256 }).memory.scope !== 'run') {
      t.skip('no writable cgroup here: the cap is per process, as the protections line says');
      return;
    }
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'python3 -c "$(cat value.txt)"\n' });
    const shared = 'import mmap; m = mmap.mmap(-1, 1 << 30, flags=mmap.MAP_SHARED); [m.__setitem__(i, 1) for i in range(0, 1 << 30, 4096)]';
    const tmpFile = "f = open('/tmp/fill', 'wb'); [f.write(b'x' * (1 << 24)) for _ in range(64)]; f.close()";
    const result = await runFix(request(ws, 'value.txt', [shared, tmpFile], { isolation: { ...isolation, memoryMB: 256 } }));
    for (const c of result.candidates) {
      assert.notEqual(c.verdict.status, 'pass', `${c.replacement}: ${c.verdict.reason ?? ''}`);
    }
    assert.match(result.candidates[0].verdict.reason ?? '', /memory limit \(256 MiB\)/);
    remove(ws);
  });

  it('a copy made immutable by its run is still removed, and the next request runs', { skip: process.getuid?.() !== 0 && 'chattr +i needs root' }, async () => {
    const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': 'chattr +i check.sh 2>/dev/null; test "$(cat value.txt)" = good\n' });
    // A root of its own: the killed CLI above leaves its folder for the next process's sweep.
    const root = makeTempRoot();
    process.env.VERIFIED_FIX_TMPDIR = root;
    try {
      for (let i = 0; i < 2; i++) {
        const result = await runFix(request(ws, 'value.txt', ['good'], { isolation: { ...isolation, backend: 'process-group', allowProcessGroupAsRoot: true } }));
        assert.equal(result.candidates[0].verdict.status, 'pass', result.candidates[0].verdict.output);
      }
      assert.deepEqual(readdirSync(root), [], 'nothing is left in the temp root');
    } finally {
      process.env.VERIFIED_FIX_TMPDIR = tempRoot;
      remove(ws, root);
    }
  });
});
