// Issue #25 item 11: overlay isolation never engaged under `unshare` (its trial write failed, so every request fell back
// to copies). The run started in the copy's folder as it was before the sandbox's mounts; it now enters its own tree.
// Through the real CLI, as root and as uid 65534 (overlayfs in a user namespace: kernel 5.11 or later).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sandboxOfKind } from '../../../src/core/sandbox/detect';
import { fingerprint, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { NOBODY, attackFolders, baseEnv, runCliAs } from './attackCli';
import type { Json } from './attackCli';

const { ownedFolder, removeAll } = attackFolders('vf-unshare-overlay-');
after(removeAll);

/**
 * Passes when value.txt says `good`, after writing as tools do: by a relative path, into node_modules, and to the
 * original workspace by its absolute path. It fails when an earlier run's writes show, or when it can write a test or
 * read `.git`.
 */
function writingWorkspace(uid?: number): string {
  const ws = makeWorkspace({ 'value.txt': 'old\n', 'other.txt': 'original\n', 'node_modules/dep/index.js': '', 'test/value.test.sh': 'true\n' }, { git: true });
  const check = [
    'test ! -e marker || { echo "an earlier run left its marker"; exit 3; }',
    'grep -q original other.txt || { echo "an earlier run changed other.txt"; exit 4; }',
    `echo x > marker && echo changed > ${ws}/other.txt && mkdir -p node_modules/.cache && echo y > node_modules/.cache/c || exit 5`,
    // What stays protected in its own tree: the tests read-only, `.git` hidden, by relative and by absolute path.
    `for f in test/value.test.sh ${ws}/test/value.test.sh; do { echo x >> $f; } 2>/dev/null && { echo "wrote $f"; exit 6; }; done`,
    `for f in .git/config ${ws}/.git/config; do grep -q core $f 2>/dev/null && { echo "read $f"; exit 7; }; done`,
    'test "$(cat value.txt)" = good',
  ].join('\n');
  writeFileSync(join(ws, 'check.sh'), `${check}\n`);
  spawnSync('git', ['add', 'check.sh'], { cwd: ws });
  spawnSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-qm', 'check'], { cwd: ws });
  if (uid !== undefined) spawnSync('chown', ['-R', `${uid}:${uid}`, ws]);
  return ws;
}

async function overlayUnderUnshare(uid?: number): Promise<void> {
  const tag = `${uid ?? 0}`;
  const ws = writingWorkspace(uid);
  const tempRoot = ownedFolder(`temp-${tag}`, uid);
  const candidates = join(ownedFolder(`cand-${tag}`, uid), 'c.json');
  // The good one runs twice (two confirming runs): the second would fail on the first one's marker.
  writeFileSync(candidates, JSON.stringify(['bad', 'good', 'worse']));
  const before = fingerprint(ws);
  const args = ['fix', '--workspace', ws, '--file', 'value.txt', '--lines', '1-1', '--candidates', candidates, '--test', 'sh check.sh'];
  args.push('--sandbox', 'unshare', '--isolation', 'auto', '--parallel', '2', '--k', '1', '--strength', 'off', '--behaviour', 'off', '--json', '--verbose');
  try {
    const r = await runCliAs(args, baseEnv(tempRoot, ownedFolder(`home-${tag}`, uid)), { uid });
    assert.match(r.stderr, /isolation: overlay: an overlay of the workspace per run/, r.stderr);
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout) as Json;
    assert.deepEqual(json.verified, [1], JSON.stringify(json.candidates.map((c) => [c.status, c.reason])));
    assert.deepEqual(fingerprint(ws), before, 'the workspace is byte-identical: every write went to the run\'s own layer');
    assert.deepEqual(readdirSync(tempRoot).filter((name) => name !== 'owner.json'), [], 'the layers are removed');
  } finally {
    remove(ws);
  }
}

describe('unshare: overlay isolation', async () => {
  const unshare = await sandboxOfKind('unshare');
  it('engages, and each run writes only its own layer (relative, absolute, node_modules); nothing is left', { skip: !unshare && 'unshare does not work here' }, () => overlayUnderUnshare());
  it('as uid 65534 (a user namespace): the same', { skip: (!unshare && 'unshare does not work here') || (NOBODY === undefined && 'needs root to switch user') }, () => overlayUnderUnshare(NOBODY));
});
