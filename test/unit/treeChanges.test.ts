// Tree changes: what a run wrote into its tree, and which of those writes count as tampering with the tests.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { diffTree, snapshotTree, tamperingIn } from '../../src/core/isolation/treeChanges';
import { makeWorkspace, remove } from './helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

function write(root: string, rel: string, content = 'x'): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

const never = async () => false;
const changes = (over: Partial<{ added: string[]; modified: string[]; removed: string[] }>) => ({ added: [], modified: [], removed: [], ...over });

describe('tamperingIn', () => {
  it('names tests, fixtures and runner configuration changed or removed, never the target', async () => {
    const found = await tamperingIn(changes({ modified: ['src/a.js', 'test/b.test.js', 'package.json', 'src/b.js'], removed: ['tests/fixtures/x.json'] }), 'src/a.js', never);
    assert.equal(found, 'the run modified test files: package.json, test/b.test.js, tests/fixtures/x.json');
    assert.equal(await tamperingIn(changes({ modified: ['a.test.js'] }), 'a.test.js', never), undefined, 'the target may be a test file');
    // A name the candidate chose is escaped and capped (it lands in stderr, the CI log, the results file).
    const hostile = `test/x\n\u001b]52;c;${Buffer.from('user:Pa55word-for-prod').toString('base64')}\u0007.test.js`;
    assert.equal(await tamperingIn(changes({ removed: [hostile, `test/${'y'.repeat(300)}.test.js`] }), 'src/a.js', never), `the run modified test files: (a name with a long base64/hex run), test/${'y'.repeat(75)}…`);
    assert.equal(await tamperingIn(changes({ modified: ['src/b.js', 'dist/out.js'], added: ['build/x.js', 'test/new.test.js'] }), 'src/a.js', never), undefined);
  });

  it('names new runner files anywhere and new packages, not tool caches or files inside installed packages', async () => {
    const added = [
      'src/conftest.py', 'sitecustomize.py', 'venv/lib/python3.12/site-packages/x.pth', 'packages/b/jest.config.js', 'vitest.config.ts', '.mocharc.json',
      'node_modules/evil/index.js', 'node_modules/evil/package.json', 'node_modules/.vite/deps/chunk.js', 'node_modules/.cache/babel/x.json',
      'node_modules/lodash/new-file.js', '.git/hooks/conftest.py', '.pytest_cache/v/conftest.py', '__pycache__/x.pth', 'src/b.js',
    ];
    const installed = async (rel: string) => rel === 'node_modules/lodash';
    assert.equal(
      await tamperingIn(changes({ added }), 'src/a.js', installed),
      'the run created files the test runner loads: .mocharc.json, node_modules/evil, node_modules/evil/package.json, packages/b/jest.config.js, sitecustomize.py, src/conftest.py, venv/lib/python3.12/site-packages/x.pth, vitest.config.ts',
    );
  });
});

describe('diffTree', () => {
  it('finds every write, even one that puts the old size and time back, and nothing in an untouched tree', async () => {
    const dir = makeWorkspace({ 'a.txt': 'aaaa', 'b.txt': 'bbbb', 'c.txt': 'c', 'sub/d.txt': 'd', 'keep.txt': 'k' });
    made.push(dir);
    symlinkSync('a.txt', join(dir, 'link'));
    const snapshot = await snapshotTree(dir);
    assert.deepEqual(await diffTree(dir, snapshot), { added: [], addedDirs: [], modified: [], removed: [], changedDirs: [] });
    const old = new Date(2020, 0, 1);
    utimesSync(join(dir, 'a.txt'), old, old);
    const snapshotOld = await snapshotTree(dir);
    writeFileSync(join(dir, 'a.txt'), 'AAAA');
    utimesSync(join(dir, 'a.txt'), old, old);
    writeFileSync(join(dir, 'new.txt'), 'n');
    write(dir, 'newdir/e.txt');
    rmSync(join(dir, 'sub'), { recursive: true });
    rmSync(join(dir, 'link'));
    symlinkSync('b.txt', join(dir, 'link'));
    chmodSync(join(dir, 'c.txt'), 0o600);
    const diff = await diffTree(dir, snapshotOld);
    assert.deepEqual(diff.added, ['new.txt', 'newdir/e.txt']);
    assert.deepEqual(diff.addedDirs, ['newdir']);
    assert.deepEqual(diff.modified, ['a.txt', 'c.txt', 'link']);
    assert.deepEqual(diff.removed, ['sub/d.txt']);
  });
});
