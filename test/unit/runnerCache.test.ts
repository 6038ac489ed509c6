// The request's runner cache (runnerCache.ts) on real folders: the baseline's folder kept, a copy of it per later
// run, no run's writes reaching another's.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { jestCacheFolder, RunnerCache } from '../../src/core/execution/runnerCache';
import { WarmStore } from '../../src/core/execution/warmStart';
import type { Logger } from '../../src/core/base/logger';
import { makeTempRoot, remove } from './helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

function setUp(maxBytes?: number, warmRoot?: string): { cache: RunnerCache; dir: string; said: string[]; warm?: WarmStore } {
  const dir = makeTempRoot();
  made.push(dir);
  const said: string[] = [];
  const logger: Logger = { trace() {}, info: (m) => said.push(m), warn: (m) => said.push(m), error() {} };
  const warm = warmRoot ? new WarmStore('/work/app', 'c0ffee', logger, warmRoot) : undefined;
  return { cache: new RunnerCache(dir, '/tmp/jest_0', logger, warm, maxBytes), dir, said, ...(warm ? { warm } : {}) };
}

describe('the runner cache carried from the baseline', () => {
  it("names jest's default cacheDirectory for the run's user", () => {
    assert.equal(jestCacheFolder(0), '/tmp/jest_0');
    assert.equal(jestCacheFolder(65534), '/tmp/jest_1eke');
    assert.equal(jestCacheFolder(1000), '/tmp/jest_rs');
  });

  it('gives each run an empty folder of its own until the baseline is kept, then a copy of it', async () => {
    const { cache, dir, said } = setUp();
    const baseline = await cache.bindFor('baseline');
    const beside = await cache.bindFor('c1-head');
    assert.equal(baseline.target, '/tmp/jest_0');
    assert.notEqual(baseline.source, beside.source);
    assert.ok(baseline.source.startsWith(dir));
    assert.deepEqual(readdirSync(beside.source), []);
    mkdirSync(join(baseline.source, 'jest-transform-cache-x', 'ab'), { recursive: true });
    writeFileSync(join(baseline.source, 'jest-transform-cache-x', 'ab', 'calc_ab12'), 'transformed');
    symlinkSync('/etc/hostname', join(baseline.source, 'link'));
    assert.equal(await cache.keep(baseline.source), true);
    assert.match(said.join('\n'), /jest's cache: each later run starts with a copy of the baseline's \(0\.0 MB, 2 files; jest's default cacheDirectory, \/tmp\/jest_0, in the run's private \/tmp\)/);
    const first = await cache.bindFor('c1');
    const second = await cache.bindFor('c2');
    assert.equal(readFileSync(join(first.source, 'jest-transform-cache-x', 'ab', 'calc_ab12'), 'utf8'), 'transformed');
    // A run's writes stay in its own copy: neither the baseline's folder nor the next run sees them.
    writeFileSync(join(first.source, 'jest-transform-cache-x', 'ab', 'calc_ab12'), 'planted');
    writeFileSync(join(first.source, 'extra'), 'x');
    assert.equal(readFileSync(join(baseline.source, 'jest-transform-cache-x', 'ab', 'calc_ab12'), 'utf8'), 'transformed');
    assert.equal(readFileSync(join(second.source, 'jest-transform-cache-x', 'ab', 'calc_ab12'), 'utf8'), 'transformed');
    assert.equal(existsSync(join(second.source, 'extra')), false);
    const third = await cache.bindFor('c3');
    assert.equal(existsSync(join(third.source, 'extra')), false);
  });

  it('keeps nothing from a baseline that cached nothing (a runner other than jest)', async () => {
    const { cache, said } = setUp();
    const baseline = await cache.bindFor('baseline');
    assert.equal(await cache.keep(baseline.source), false);
    assert.deepEqual(readdirSync((await cache.bindFor('c1')).source), []);
    assert.deepEqual(said, []);
  });

  it('gives a run an empty folder where the copy fails: the run goes on without a warm start', async () => {
    const { cache, said } = setUp();
    const baseline = await cache.bindFor('baseline');
    writeFileSync(join(baseline.source, 'entry'), 'transformed');
    assert.equal(await cache.keep(baseline.source), true);
    assert.ok(said.length > 0);
    remove(baseline.source); // cp has nothing to copy from now
    const run = await cache.bindFor('c1');
    assert.deepEqual(readdirSync(run.source), []);
  });

  it('keeps nothing over the size it copies into each run, and says so', async () => {
    const { cache, said } = setUp(1024);
    const baseline = await cache.bindFor('baseline');
    writeFileSync(join(baseline.source, 'big'), Buffer.alloc(4096));
    assert.equal(await cache.keep(baseline.source), false);
    assert.deepEqual(readdirSync((await cache.bindFor('c1')).source), []);
    assert.match(said.join('\n'), /jest's cache: the baseline's \(0\.0 MB, 1 file\) is over the 0 MB copied into each run, so each run starts with an empty one/);
  });

  it("starts the next request's runs before its baseline from the cache this request's baseline left; a later run's writes to its copy never reach it", async () => {
    const warmRoot = makeTempRoot();
    made.push(warmRoot);
    const first = setUp(undefined, warmRoot);
    const baseline = await first.cache.bindFor('baseline');
    assert.deepEqual(readdirSync(baseline.source), [], 'nothing kept yet: the first request starts cold');
    writeFileSync(join(baseline.source, 'entry'), 'transformed');
    assert.equal(await first.cache.keep(baseline.source), true);
    const candidate = await first.cache.bindFor('c1');
    writeFileSync(join(candidate.source, 'entry'), 'planted');
    writeFileSync(join(candidate.source, 'extra'), 'planted');
    await first.warm?.settled();

    const next = setUp(undefined, warmRoot);
    const [nextBaseline, beside] = [await next.cache.bindFor('baseline'), await next.cache.bindFor('c1-head')];
    for (const run of [nextBaseline, beside]) {
      assert.deepEqual(readdirSync(run.source), ['entry']);
      assert.equal(readFileSync(join(run.source, 'entry'), 'utf8'), 'transformed');
    }
    assert.match(next.said.join('\n'), /jest's cache: the baseline, and a run beside it, start from the one the last request's baseline on this workspace left \(kept in .*\)/);
    // The next request's baseline adds to it; its own copy is what the request after starts from.
    writeFileSync(join(nextBaseline.source, 'second'), 'transformed');
    assert.equal(await next.cache.keep(nextBaseline.source), true);
    await next.warm?.settled();
    const third = setUp(undefined, warmRoot);
    assert.deepEqual(readdirSync((await third.cache.bindFor('baseline')).source).sort(), ['entry', 'second']);
  });
});
