// Hostile candidates through `verified-fix fix --provider file`: each run ends, reported; nothing leaks or survives.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { detectSandbox } from '../../../src/core/sandbox/detect';
import { runCli } from '../../unit/helpers/cli';
import { killMarked, newMarker, waitForNoSurvivors } from '../../unit/helpers/processes';
import { fingerprint, makeWorkspace, remove } from '../../unit/helpers/workspace';

// The engine remembers the sandbox that worked in the user's cache (sandbox/probeMemory.ts): that write is its own,
// so it goes outside the home these tests fingerprint for a candidate's writes.
const cacheHome = mkdtempSync(join(tmpdir(), 'vf-cache-'));

interface Case {
  readonly name: string;
  /** Code run when the candidate's module loads; the candidate still returns the right answer after it. */
  readonly code: string;
  /** The verdict the run must get, or a list of acceptable ones. */
  readonly expect: string | readonly string[];
  readonly reason?: RegExp;
}

let server: Server;
let port = 0;
let connections = 0;
const outside = mkdtempSync(join(tmpdir(), 'vf-outside-'));
const home = join(outside, 'home');
const tempRoot = join(outside, 'temp-root');
const marker = newMarker();

before(async () => {
  mkdirSync(home);
  mkdirSync(tempRoot);
  writeFileSync(join(home, '.profile'), 'keep me\n');
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
after(async () => {
  killMarked(marker);
  await new Promise((resolve) => server.close(resolve));
  remove(outside, cacheHome);
});

const js = (ws: string): Case[] => [
  // From a workspace near / (an overlay runs in the workspace's own path), ../../.. is / : walking it may time out.
  // With an overlay the workspace's own path is the run's copy-on-write view: the write lands in the run's layer (pass),
  // and the original stays byte-identical either way (checked below).
  { name: 'writes to the original workspace by absolute path', code: `require('fs').writeFileSync(${JSON.stringify(join(ws, 'pwned.txt'))}, 'x');`, expect: ['fail', 'pass'] },
  { name: 'writes to $HOME', code: `require('fs').writeFileSync(require('os').homedir() + '/pwned.txt', 'x');`, expect: ['fail', 'pass'] },
  { name: 'deletes files through ../', code: `for (const up of ['..', '../..', '../../..']) { try { require('fs').rmSync(require('path').resolve(up), { recursive: true, force: true }); } catch {} }`, expect: ['fail', 'error', 'pass', 'timeout'] },
  { name: 'follows a symlink out of the copy', code: `require('fs').symlinkSync(${JSON.stringify(ws)}, 'escape'); require('fs').writeFileSync('escape/pwned.txt', 'x');`, expect: ['fail', 'pass'] },
  { name: 'connects to a listener on the host loopback', code: `const s = require('net').connect(${port}, '127.0.0.1'); s.on('connect', () => { throw new Error('connected'); }); s.on('error', () => {});`, expect: ['pass', 'fail'] },
  { name: 'resolves and fetches an outside address', code: `fetch('http://verified-fix-outside.invalid/').then(() => { throw new Error('fetched'); }, () => {});`, expect: 'pass' },
  { name: 'forks SIGTERM-proof children and a double-forked setsid daemon', code: `require('child_process').spawn('sh', ['-c', "trap '' TERM; (setsid sh -c 'sleep 300.${marker}' &); sleep 301.${marker} & sleep 302.${marker}"], { detached: true, stdio: 'ignore' }).unref();`, expect: ['pass', 'timeout'] },
  { name: 'allocates without bound', code: `const hog = []; for (;;) hog.push(Buffer.alloc(1 << 24, 1));`, expect: ['error', 'timeout'], reason: /memory limit|timed out/ },
  { name: 'loops forever', code: 'for (;;) {}', expect: 'timeout' },
  { name: 'prints 1 GB', code: `const mb = Buffer.alloc(1 << 20, 120); for (let i = 0; i < 1024; i++) require('fs').writeSync(1, mb);`, expect: ['pass', 'fail', 'timeout'] },
  { name: 'deletes its own copy mid-run', code: `require('fs').rmSync(process.cwd(), { recursive: true, force: true });`, expect: ['error', 'fail'] },
  // Read-only inside the sandbox: the write throws, so the module fails to load and the real test fails.
  { name: 'changes the test files to make them pass', code: `require('fs').writeFileSync('test/answer.test.js', '');`, expect: ['fail', 'error'], reason: /modified test files/ },
];

const py = (ws: string): Case[] => [
  { name: 'writes to the original workspace by absolute path', code: `open(${JSON.stringify(join(ws, 'pwned.txt'))}, 'w').write('x')`, expect: ['fail', 'error', 'pass'] },
  { name: 'writes to $HOME', code: `import os; open(os.path.expanduser('~/pwned.txt'), 'w').write('x')`, expect: ['fail', 'error', 'pass'] },
  { name: 'deletes files through ../', code: `import shutil; [shutil.rmtree(p, ignore_errors=True) for p in ('..', '../..', '../../..')]`, expect: ['fail', 'error', 'pass', 'timeout'] },
  { name: 'follows a symlink out of the copy', code: `import os; os.symlink(${JSON.stringify(ws)}, 'escape'); open('escape/pwned.txt', 'w').write('x')`, expect: ['fail', 'error', 'pass'] },
  { name: 'connects to a listener on the host loopback', code: `import socket\ntry: socket.create_connection(('127.0.0.1', ${port}), timeout=2); raise RuntimeError('connected')\nexcept OSError: pass`, expect: 'pass' },
  { name: 'resolves and fetches an outside address', code: `import urllib.request\ntry: urllib.request.urlopen('http://verified-fix-outside.invalid/', timeout=2); raise RuntimeError('fetched')\nexcept OSError: pass`, expect: 'pass' },
  { name: 'forks a double-forked setsid daemon', code: `import subprocess; subprocess.Popen(['sh', '-c', "trap '' TERM; (setsid sh -c 'sleep 303.${marker}' &); sleep 304.${marker}"], start_new_session=True)`, expect: ['pass', 'timeout'] },
  { name: 'allocates without bound', code: `hog = []\nwhile True: hog.append(bytearray(1 << 24))`, expect: ['error', 'timeout', 'fail'], reason: /memory limit|timed out|^$/ },
  { name: 'loops forever', code: 'while True: pass', expect: 'timeout' },
  { name: 'deletes its own copy mid-run', code: `import os, shutil; shutil.rmtree(os.getcwd(), ignore_errors=True)`, expect: ['error', 'fail', 'pass'] },
  { name: 'changes the test files to make them pass', code: `open('tests/test_answer.py', 'w').write('')`, expect: ['fail', 'error'], reason: /modified test files/ },
];

const languages = [
  {
    name: 'JavaScript',
    files: {
      'package.json': '{"name": "answer", "private": true, "scripts": {"test": "node --test"}}\n',
      'src/answer.js': 'function answer() { return 41; }\nmodule.exports = { answer };\n',
      'test/answer.test.js': "const assert = require('node:assert');\nrequire('node:test')('answer', () => assert.equal(require('../src/answer').answer(), 42));\n",
    },
    file: 'src/answer.js',
    test: 'node --test',
    good: 'function answer() { return 42; }',
    wrap: (code: string) => `${code}\nfunction answer() { return 42; }`,
    cases: js,
  },
  {
    name: 'Python',
    files: {
      'answer.py': 'def answer():\n    return 41\n',
      'tests/__init__.py': '',
      'tests/test_answer.py': 'import unittest\nfrom answer import answer\n\nclass T(unittest.TestCase):\n    def test_answer(self):\n        self.assertEqual(answer(), 42)\n',
    },
    file: 'answer.py',
    test: 'python3 -m unittest discover -s tests -t . -q',
    good: 'def answer():\n    return 42',
    wrap: (code: string) => `${code}\ndef answer():\n    return 42`,
    cases: py,
  },
] as const;

describe('hostile candidates', async () => {
  const contained = (await detectSandbox()).kind === 'bwrap';
  for (const language of languages) {
    it(`${language.name}: every hostile run is reported, the good candidate still verifies, nothing leaks`, { skip: !contained && 'needs bubblewrap (CI installs it)' }, async () => {
      const ws = makeWorkspace(language.files, { git: true });
      const cases = language.cases(ws);
      const lineCount = language.file === 'answer.py' ? 2 : 1;
      const candidates = [language.good, ...cases.map((c) => language.wrap(c.code))];
      writeFileSync(join(outside, `${language.name}.json`), JSON.stringify(candidates));
      const beforeWs = fingerprint(ws);
      const beforeHome = fingerprint(home);
      const before = connections;
      const r = await runCli(
        ['fix', '--workspace', ws, '--file', language.file, '--lines', `1-${lineCount}`, '--candidates', join(outside, `${language.name}.json`),
          '--test', language.test, '--timeout', '8', '--parallel', '2', '--confirm-runs', '1', '--memory-mb', '1024', '--k', '1', '--strength', 'off', '--json'],
        { env: { ...process.env, HOME: home, XDG_CACHE_HOME: cacheHome, VERIFIED_FIX_TMPDIR: tempRoot }, timeoutMs: 400_000 },
      );
      assert.equal(r.exitCode, 0, r.stderr);
      const json = JSON.parse(r.stdout);
      assert.equal(json.candidates[0].status, 'pass', 'the good candidate is verified despite its hostile neighbours');
      assert.ok(json.verified.includes(0));
      cases.forEach((c, i) => {
        const got = json.candidates[i + 1];
        console.log(`# ${language.name} / ${c.name}: ${got.status}${got.reason ? ` (${got.reason})` : ''}`);
        const allowed = typeof c.expect === 'string' ? [c.expect] : c.expect;
        assert.ok(allowed.includes(got.status), `${c.name}: got ${got.status} (${got.reason ?? ''})`);
        if (c.reason && got.status !== 'fail') assert.match(got.reason ?? '', c.reason, c.name);
      });
      assert.deepEqual(fingerprint(ws), beforeWs, 'the original workspace is byte-identical');
      assert.deepEqual(fingerprint(home), beforeHome, '$HOME is untouched');
      assert.equal(connections - before, 0, 'no connection reached the host loopback');
      assert.deepEqual(readdirSync(tempRoot), [], 'no temp copy remains');
      assert.deepEqual(await waitForNoSurvivors(marker), [], 'no process survives');
      remove(ws);
    });
  }
});
