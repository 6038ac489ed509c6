// The state one request's baseline leaves for the next request on the same workspace (warmStart.ts), on real
// folders: kept by copy, read by copy, replaced whole, removed when too large, and only the most recent workspaces'.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { WARM_MAX_BYTES, WARM_WORKSPACES, WarmStore, openKeptState, warmRootPath } from '../../src/core/execution/warmStart';
import { silentLogger } from '../../src/core/base/logger';
import { tempRootMaker } from './helpers/workspace';

/** A fresh folder, removed once the file's tests end. */
const folder = tempRootMaker();

/** A folder holding `files` (name → text). */
function holding(files: Record<string, string>): string {
  const dir = folder();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('the state kept from one request to the next', () => {
  it('lives under XDG_CACHE_HOME, else ~/.cache (a relative XDG_CACHE_HOME is ignored)', () => {
    assert.equal(warmRootPath({ XDG_CACHE_HOME: '/c' }), '/c/verified-fix/warm');
    assert.equal(warmRootPath({ XDG_CACHE_HOME: 'relcache' }), warmRootPath({}));
    assert.match(warmRootPath({}), /^\/.*\/\.cache\/verified-fix\/warm$/);
  });

  it('gives nothing before a request kept anything, then a copy of what it kept, which no reader can change', async () => {
    const root = folder();
    const first = new WarmStore('/work/app', undefined, silentLogger, root);
    const nothing = join(folder(), 'out');
    assert.equal(await first.copyOut('jest', nothing), false);
    assert.equal(existsSync(nothing), false);
    first.keep('jest', holding({ 'a/entry': 'transformed' }), 11);
    await first.settled();
    const next = new WarmStore('/work/app', undefined, silentLogger, root);
    const copy = join(folder(), 'out');
    assert.equal(await next.copyOut('jest', copy), true);
    assert.equal(readFileSync(join(copy, 'a', 'entry'), 'utf8'), 'transformed');
    writeFileSync(join(copy, 'a', 'entry'), 'planted');
    const again = join(folder(), 'out');
    assert.equal(await next.copyOut('jest', again), true);
    assert.equal(readFileSync(join(again, 'a', 'entry'), 'utf8'), 'transformed');
    assert.equal(await next.copyOut('bytecode', join(folder(), 'out')), false, 'each kind is kept apart');
    assert.equal(readFileSync(join(next.location, 'workspace.txt'), 'utf8'), '/work/app\n');
  });

  it("keeps each workspace's and each commit's apart, and replaces a kind whole", async () => {
    const root = folder();
    const app = new WarmStore('/work/app', undefined, silentLogger, root);
    app.keep('jest', holding({ old: '1', both: 'old' }), 2);
    await app.settled();
    app.keep('jest', holding({ both: 'new' }), 3);
    await app.settled();
    const copy = join(folder(), 'out');
    assert.equal(await new WarmStore('/work/app', undefined, silentLogger, root).copyOut('jest', copy), true);
    assert.deepEqual(readdirSync(copy), ['both']);
    assert.deepEqual(readdirSync(app.location).sort(), ['jest', 'workspace.txt'], 'no half-made or replaced copy left beside it');
    assert.equal(readFileSync(join(copy, 'both'), 'utf8'), 'new');
    assert.equal(await new WarmStore('/work/other', undefined, silentLogger, root).copyOut('jest', join(folder(), 'out')), false);
    // Another commit checked out at the same path (another pull request on a CI runner) is another workspace.
    const committed = new WarmStore('/work/app', 'a1b2c3', silentLogger, root);
    assert.equal(await committed.copyOut('jest', join(folder(), 'out')), false);
    committed.keep('jest', holding({ mine: '1' }), 1);
    await committed.settled();
    assert.equal(readFileSync(join(committed.location, 'workspace.txt'), 'utf8'), '/work/app\na1b2c3\n');
    // Keeping at a new commit removes what the workspace kept at others: a commit is not checked out twice, as a rule.
    assert.equal(await new WarmStore('/work/app', undefined, silentLogger, root).copyOut('jest', join(folder(), 'out')), false);
    assert.equal(existsSync(app.location), false);
  });

  it('removes what it kept once a kind grows over the limit', async () => {
    const root = folder();
    const app = new WarmStore('/work/app', undefined, silentLogger, root);
    app.keep('bytecode', holding({ a: '1' }), 1);
    await app.settled();
    app.keep('bytecode', holding({ a: '2' }), WARM_MAX_BYTES + 1);
    await app.settled();
    assert.equal(await app.copyOut('bytecode', join(folder(), 'out')), false);
  });

  it('keeps only the most recently used workspaces', async () => {
    const root = folder();
    const stores = Array.from({ length: WARM_WORKSPACES }, (_, i) => new WarmStore(`/work/p${i}`, undefined, silentLogger, root));
    for (const [i, store] of stores.entries()) {
      store.keep('jest', holding({ a: String(i) }), 1);
      await store.settled();
      // Hours apart, the oldest first, as requests on different days.
      const at = new Date(Date.now() - (stores.length - i) * 3_600_000);
      utimesSync(store.location, at, at);
    }
    // Reading marks a workspace as used: p0 is now the most recent.
    assert.equal(await stores[0].copyOut('jest', join(folder(), 'out')), true);
    const later = [new WarmStore('/work/q0', undefined, silentLogger, root), new WarmStore('/work/q1', undefined, silentLogger, root)];
    for (const store of later) {
      store.keep('jest', holding({ a: 'q' }), 1);
      await store.settled();
    }
    assert.equal(readdirSync(root).length, WARM_WORKSPACES);
    assert.deepEqual(stores.map((store) => existsSync(store.location)), [true, false, false, ...Array.from({ length: WARM_WORKSPACES - 3 }, () => true)]);
    assert.deepEqual(later.map((store) => existsSync(store.location)), [true, true]);
  });

  it('makes its folders private, reads or keeps nothing where another user could write, and removes what a dead request left', async () => {
    const root = join(folder(), 'verified-fix', 'warm');
    const said: string[] = [];
    const store = new WarmStore('/work/app', undefined, { ...silentLogger, info: (m) => said.push(m) }, root);
    store.keep('jest', holding({ a: '1' }), 1);
    await store.settled();
    for (const dir of [join(root, '..'), root, store.location]) assert.equal(statSync(dir).mode & 0o777, 0o700, dir);
    for (const dir of [root, store.location]) {
      chmodSync(dir, 0o770);
      assert.equal(await store.copyOut('jest', join(folder(), 'out')), false, `${dir} group-writable: not read`);
      store.keep('jest', holding({ a: 'planted' }), 1);
      await store.settled();
      assert.match(said.pop() ?? '', /kept state: jest could not be kept for the next request \(.* is a link, another user's, or writable by others\)/);
      chmodSync(dir, 0o700);
    }
    // A copy a dead request left half-made goes once it is old, by the time in its name (cp -a keeps the source's).
    const young = `jest.old-${Date.now()}-ba9876543210`;
    mkdirSync(join(store.location, `jest.new-${Date.now() - 3_600_000}-0123456789ab`));
    mkdirSync(join(store.location, young));
    store.keep('jest', holding({ a: '2' }), 1);
    await store.settled();
    assert.deepEqual(readdirSync(store.location).sort(), ['jest', young, 'workspace.txt']);
    const copy = join(folder(), 'out');
    assert.equal(await store.copyOut('jest', copy), true);
    assert.equal(readFileSync(join(copy, 'a'), 'utf8'), '2');
    assert.equal(said.length, 0);
  });

  it("opens a request's kept state only where no run would see it and the commit is known", async () => {
    const said: string[] = [];
    const logger = { ...silentLogger, info: (m: string) => said.push(m) };
    const workspace = folder();
    const root = join(folder(), 'cache', 'verified-fix', 'warm');
    const kept = await openKeptState(workspace, 'a1b2c3', true, logger, root);
    assert.ok(kept);
    assert.deepEqual(await kept.foldersToHide(), [root]);
    rmSync(root, { recursive: true });
    assert.deepEqual(await kept.foldersToHide(), [root], 'made again before a run once removed');
    assert.ok(statSync(root).isDirectory());
    assert.equal(statSync(root).mode & 0o777, 0o700);
    const inWorkspace = join(workspace, '.cache', 'verified-fix', 'warm');
    assert.equal(await openKeptState(workspace, 'a1b2c3', true, logger, inWorkspace), undefined);
    assert.equal(existsSync(join(workspace, '.cache')), false, 'nothing made in the workspace');
    assert.match(said.join('\n'), /kept state: nothing is kept from one request to the next, since .* lies inside the workspace/);
    // A link elsewhere that leads into the workspace is inside it too.
    const link = join(folder(), 'linked');
    symlinkSync(workspace, link);
    assert.equal(await openKeptState(workspace, 'a1b2c3', true, logger, join(link, 'warm')), undefined);
    // A checkout git would not list (one another user owns): its commit is unknown, so nothing is kept.
    mkdirSync(join(workspace, '.git'));
    assert.equal(await openKeptState(join(workspace), undefined, false, logger, root), undefined);
    assert.match(said.join('\n'), /since git could not read the checkout the workspace is in/);
    const plain = folder();
    assert.ok(await openKeptState(plain, undefined, false, logger, root), 'a workspace outside git: by its path');
  });

  it('says, and goes on, where it cannot keep anything', async () => {
    const root = join(holding({ file: 'x' }), 'file'); // a file where its folder would go
    const said: string[] = [];
    const store = new WarmStore('/work/app', undefined, { ...silentLogger, info: (m) => said.push(m) }, root);
    store.keep('jest', holding({ a: '1' }), 1);
    await store.settled();
    assert.match(said.join('\n'), /kept state: jest could not be kept for the next request/);
    assert.equal(await store.copyOut('jest', join(folder(), 'out')), false);
  });
});
