// Round-4 attacks through the real CLI (#25's last items): process group as root, --no-baseline, the CLI's own
// environment, folders a run makes hard to remove. As root and as uid 65534 where the machine allows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';
import { runCliAs } from './attackCli';

const isRoot = process.getuid?.() === 0;
/** uid 65534 where this process is root: the user the CLI runs as in the second pass. */
const NOBODY = isRoot ? 65534 : undefined;
const outside = mkdtempSync(join(tmpdir(), 'vf-round4-'));
chmodSync(outside, 0o755);
// rm -rf, not rmSync: a failed run of the last suite leaves trees deeper than PATH_MAX.
after(() => spawnSync('sh', ['-c', 'chmod -R u+rwx -- "$1"; rm -rf -- "$1"', 'sh', outside]));

let folders = 0;
/** A folder under `outside` owned by `uid`, so the CLI as that user can write there. */
function ownedFolder(uid?: number): string {
  const dir = join(outside, `f${folders++}`);
  mkdirSync(dir, { recursive: true });
  if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, dir]);
  return dir;
}

function baseEnv(uid?: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: ownedFolder(uid), VERIFIED_FIX_TMPDIR: ownedFolder(uid), ...extra };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

/** A shell project whose test passes when value.txt says `good`; `ran` is created by every run of it. */
function shellProject(uid?: number, check = 'read v < value.txt; test "$v" = good'): { ws: string; ran: string } {
  const ran = join(ownedFolder(uid), 'ran');
  const ws = makeWorkspace({ 'value.txt': 'old\n', 'check.sh': `true > ${ran} 2>/dev/null\n${check}\n` });
  if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, ws]);
  return { ws, ran };
}

function candidates(list: readonly string[], uid?: number): string {
  const file = join(ownedFolder(uid), 'c.json');
  writeFileSync(file, JSON.stringify(list));
  if (uid !== undefined) spawnSync('chown', [`${uid}:${uid}`, file]);
  return file;
}

const fixArgs = (ws: string, list: string, ...extra: string[]) => [
  'fix', '--workspace', ws, '--file', 'value.txt', '--lines', '1-1', '--candidates', list, '--test', 'sh check.sh',
  '--timeout', '30', '--parallel', '1', '--confirm-runs', '1', '--k', '1', '--strength', 'off', '--behaviour', 'off', '--json', ...extra,
];

interface Json {
  candidates: Array<{ status: string; reason?: string; verified: boolean }>;
  verified: number[];
}

const RISKS = /test runs are NOT sandboxed \(process-group backend\)/g;

describe('round 4: process group as root', () => {
  it('root, --sandbox process-group: refused with exit 2 before any test runs', { skip: !isRoot && 'needs root' }, async () => {
    const { ws, ran } = shellProject();
    try {
      const r = await runCliAs(fixArgs(ws, candidates(['good']), '--sandbox', 'process-group'), baseEnv());
      assert.equal(r.exitCode, 2, r.stderr);
      assert.match(r.stderr, /refusing to run tests as root without a sandbox.*--allow-process-group-as-root/s);
      assert.equal(existsSync(ran), false, 'no test ran');
    } finally {
      remove(ws);
    }
  });

  it('root with --allow-process-group-as-root: runs, and says once what it gives up', { skip: !isRoot && 'needs root' }, async () => {
    const { ws, ran } = shellProject();
    try {
      const r = await runCliAs(fixArgs(ws, candidates(['bad', 'good']), '--sandbox', 'process-group', '--allow-process-group-as-root'), baseEnv());
      assert.equal(r.exitCode, 0, r.stderr);
      assert.deepEqual((JSON.parse(r.stdout) as Json).verified, [1]);
      assert.equal(existsSync(ran), true);
      assert.equal(r.stderr.match(RISKS)?.length, 1, r.stderr);
      assert.match(r.stderr, /network.*every local socket.*running as ROOT/s);
    } finally {
      remove(ws);
    }
  });

  it('uid 65534, process group without the opt-in: runs, and says once what it gives up', { skip: NOBODY === undefined && 'needs root to switch user' }, async () => {
    const { ws } = shellProject(NOBODY);
    try {
      const r = await runCliAs(fixArgs(ws, candidates(['bad', 'good'], NOBODY), '--sandbox', 'process-group'), baseEnv(NOBODY), { uid: NOBODY });
      assert.equal(r.exitCode, 0, r.stderr);
      assert.deepEqual((JSON.parse(r.stdout) as Json).verified, [1]);
      assert.equal(r.stderr.match(RISKS)?.length, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /ROOT/);
    } finally {
      remove(ws);
    }
  });
});

const SECRET = 'sk-round4-never-readable-0123456789';
/**
 * A candidate that walks up its ancestors (the CLI is one under the process group) and copies every key line of their
 * /proc environments, plus a marker only the CLI's environment holds (so the walk is known to have read it), to `leak`.
 */
const environReader = (leak: string) =>
  `p=$$; while [ "$p" -gt 1 ]; do tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | grep -E '^(VERIFIED_FIX_API_KEY|OPENAI_API_KEY|ROUND4_MARKER)=' >> ${leak}; p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2); done; ok=yes`;

async function keyInCliEnviron(uid?: number): Promise<void> {
  const { ws } = shellProject(uid, '. ./value.txt; test "$ok" = yes');
  const leak = join(ownedFolder(uid), 'leak');
  const env = baseEnv(uid, { VERIFIED_FIX_API_KEY: SECRET, OPENAI_API_KEY: SECRET, ROUND4_MARKER: 'visible' });
  const extra = uid === undefined ? ['--allow-process-group-as-root'] : [];
  try {
    const r = await runCliAs(fixArgs(ws, candidates([environReader(leak)], uid), '--sandbox', 'process-group', ...extra), env, { uid });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as Json).verified, [0], r.stderr);
    const read = existsSync(leak) ? readFileSync(leak, 'utf8') : '';
    assert.match(read, /ROUND4_MARKER=visible/, 'the candidate read the CLI\'s environment');
    assert.ok(!read.includes(SECRET), `the key is not in the CLI's /proc/<pid>/environ: ${read}`);
  } finally {
    remove(ws);
  }
}

describe('round 4: the product key in the CLI\'s own environment (process group: no PID namespace)', () => {
  it('root (opted in): a candidate reading /proc/<cli pid>/environ finds no key', { skip: !isRoot && 'needs root' }, () => keyInCliEnviron());
  it('uid 65534: the same', { skip: NOBODY === undefined && 'needs root to switch user' }, () => keyInCliEnviron(NOBODY));
  it('as this user, whoever it is: the same', { skip: isRoot && 'covered above' }, () => keyInCliEnviron());
});

/** Run by the test command: a folder its owner cannot enter, and a tree deeper than PATH_MAX, both in its copy. */
const hardToRemove =
  "( mkdir -p locked/inner && : > locked/inner/f && chmod 000 locked; d=$(printf 'a%.0s' $(seq 200)); for i in $(seq 30); do mkdir $d && cd $d || break; done; : > deep ); ok=yes";

async function leavesNothing(uid: number | undefined, sandbox: readonly string[]): Promise<void> {
  const { ws } = shellProject(uid, '. ./value.txt; test "$ok" = yes');
  const tempRoot = ownedFolder(uid);
  try {
    const r = await runCliAs(fixArgs(ws, candidates([hardToRemove], uid), ...sandbox), baseEnv(uid, { VERIFIED_FIX_TMPDIR: tempRoot }), { uid });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as Json).verified, [0], r.stderr);
    assert.doesNotMatch(r.stderr, /could not remove/);
    assert.deepEqual(readdirSync(tempRoot), [], 'nothing left in the temp root, no stuck-… folder');
  } finally {
    remove(ws);
  }
}

describe('round 4: folders a run makes hard to remove (mode 000, deeper than PATH_MAX)', () => {
  it('root, bubblewrap (auto): removed, nothing set aside', { skip: !isRoot && 'needs root' }, () => leavesNothing(undefined, []));
  it('uid 65534, bubblewrap (auto): removed, nothing set aside', { skip: NOBODY === undefined && 'needs root to switch user' }, () => leavesNothing(NOBODY, []));
  it('uid 65534, process group, reused copies: removed, nothing set aside', { skip: NOBODY === undefined && 'needs root to switch user' }, () => leavesNothing(NOBODY, ['--sandbox', 'process-group', '--isolation', 'reuse']));
});
