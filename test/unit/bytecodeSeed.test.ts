// Python's bytecode carried from the baseline (bytecodeSeed.ts) on real folders: which files of the baseline's upper
// layer become the later runs' layer, how its folders look, and the bytecode folders opened in read-only test folders.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { BytecodeSeed } from '../../src/core/execution/bytecodeSeed';
import { WarmStore } from '../../src/core/execution/warmStart';
import type { Logger } from '../../src/core/base/logger';
import { remove, tempRootMaker } from './helpers/workspace';

/** A fresh folder, removed once the file's tests end. */
const folder = tempRootMaker();

function write(root: string, rel: string, text = 'x'): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** A bytecode file's header as CPython and pytest write it: magic, flags 0, the source's time in seconds and size. */
function header(source: string, { flags = 0, skew = 0 } = {}): Buffer {
  const stats = statSync(source);
  const bytes = Buffer.alloc(24);
  bytes.writeUInt32LE(0x0a0d0da7, 0);
  bytes.writeUInt32LE(flags, 4);
  bytes.writeUInt32LE(Math.floor(stats.mtimeMs / 1000) + skew, 8);
  bytes.writeUInt32LE(stats.size, 12);
  return bytes;
}

/** `rel`'s bytecode in `upper`, compiled from the workspace's source of it (`options`: a header that is not). */
function compiled(workspace: string, upper: string, rel: string, options: { flags?: number; skew?: number } = {}): void {
  const stem = rel.split('/').pop()?.split('.')[0] ?? '';
  const source = join(dirname(dirname(rel)), `${stem}.py`);
  if (!existsSync(join(workspace, source))) write(workspace, source, `# ${source}\n`);
  mkdirSync(dirname(join(upper, rel)), { recursive: true });
  writeFileSync(join(upper, rel), header(join(workspace, source), options));
}

/** A request's seed; `next`: the next request on the same workspace, with the same place for what requests keep. */
function setUp(target = 'pkg/calc.py', next?: { workspace: string; warmRoot: string }): { seed: BytecodeSeed; requestDir: string; workspace: string; upper: string; said: string[]; warm: WarmStore; warmRoot: string } {
  const requestDir = folder();
  const workspace = next?.workspace ?? folder();
  const warmRoot = next?.warmRoot ?? folder();
  const upper = join(requestDir, 'baseline', 'upper');
  mkdirSync(upper, { recursive: true });
  const said: string[] = [];
  const logger: Logger = { trace() {}, info: (m) => said.push(m), warn: (m) => said.push(m), error() {} };
  const warm = new WarmStore(workspace, undefined, logger, warmRoot);
  return { seed: new BytecodeSeed(requestDir, workspace, target, logger, warm), requestDir, workspace, upper, said, warm, warmRoot };
}

describe("the baseline's bytecode carried into later runs", () => {
  it("keeps the bytecode of the workspace's own unchanged sources, less the file under repair's in every form", async () => {
    const { seed, workspace, upper, said } = setUp();
    assert.deepEqual(await seed.layers(), []);
    const good = ['pkg/__pycache__/helper.cpython-311.pyc', 'pkg/__pycache__/calc_extra.cpython-311.pyc', 'pkg/sub/__pycache__/calc.cpython-311.pyc', 'tests/__pycache__/test_calc.cpython-311-pytest-8.3.3.pyc'];
    for (const rel of good) compiled(workspace, upper, rel);
    // The file under repair's, plain, optimised and as pytest rewrites a test module.
    const target = ['pkg/__pycache__/calc.cpython-311.pyc', 'pkg/__pycache__/calc.cpython-311.opt-1.pyc', 'pkg/__pycache__/calc.cpython-311-pytest-8.3.3.pyc'];
    for (const rel of target) compiled(workspace, upper, rel);
    // A source the run wrote itself (a generated module), one the workspace lacks, a header of another time or
    // checked by hash, a link, and files that are not bytecode beside a source.
    compiled(workspace, upper, 'pkg/__pycache__/gen.cpython-311.pyc');
    write(upper, 'pkg/gen.py', '# rewritten\n');
    write(upper, 'pkg/__pycache__/gone.cpython-311.pyc', 'x');
    compiled(workspace, upper, 'pkg/__pycache__/old.cpython-311.pyc', { skew: -5 });
    compiled(workspace, upper, 'pkg/__pycache__/hashed.cpython-311.pyc', { flags: 1 });
    write(workspace, 'pkg/linked.py', '# linked\n');
    symlinkSync(join(upper, 'pkg', '__pycache__', 'helper.cpython-311.pyc'), join(upper, 'pkg', '__pycache__', 'linked.cpython-311.pyc'));
    write(upper, 'pkg/stray.pyc', 'x');
    write(upper, 'pkg/__pycache__/notes.txt', 'x');
    const others = ['pkg/gen.py', 'pkg/__pycache__/gen.cpython-311.pyc', 'pkg/__pycache__/gone.cpython-311.pyc', 'pkg/__pycache__/old.cpython-311.pyc', 'pkg/__pycache__/hashed.cpython-311.pyc',
      'pkg/__pycache__/linked.cpython-311.pyc', 'pkg/stray.pyc', 'pkg/__pycache__/notes.txt', 'pkg/__pycache__/missing.cpython-311.pyc'];
    await seed.keep(upper, [...good, ...target, ...others]);
    const [layer] = await seed.layers();
    assert.ok(layer, 'a layer once bytecode was kept');
    assert.deepEqual(readdirSync(join(layer, 'pkg', '__pycache__')).sort(), ['calc_extra.cpython-311.pyc', 'helper.cpython-311.pyc']);
    assert.ok(existsSync(join(layer, 'pkg/sub/__pycache__/calc.cpython-311.pyc')), "another folder's module of the same name is not the file under repair");
    assert.ok(existsSync(join(layer, 'tests/__pycache__/test_calc.cpython-311-pytest-8.3.3.pyc')), "pytest's rewritten test module");
    assert.ok(!existsSync(join(layer, 'pkg', 'stray.pyc')));
    assert.match(said.join('\n'), /python's bytecode: each later run reads what the baseline compiled \(4 files, 0\.0 MB; the file under repair's left out\)/);
  });

  it('keeps nothing, and adds no layer, when the baseline wrote no bytecode but that of the file under repair', async () => {
    const { seed, workspace, upper, said } = setUp('calc.py');
    compiled(workspace, upper, '__pycache__/calc.cpython-311.pyc');
    await seed.keep(upper, ['__pycache__/calc.cpython-311.pyc', 'out.log']);
    assert.deepEqual(await seed.layers(), []);
    assert.deepEqual(said, []);
  });

  it('leaves the seed out, and says why, where it cannot be made', async () => {
    const { seed, workspace, upper, requestDir, said } = setUp();
    compiled(workspace, upper, 'pkg/__pycache__/helper.cpython-311.pyc');
    write(requestDir, 'bytecode', 'a file where the layer goes');
    await seed.keep(upper, ['pkg/__pycache__/helper.cpython-311.pyc']);
    assert.deepEqual(await seed.layers(), []);
    assert.match(said.join('\n'), /python's bytecode: the baseline's could not be kept for later runs, which compile their own/);
  });

  it("gives the layer's folders the workspace's modes and times, which a run sees in place of the workspace's", async () => {
    const { seed, workspace, upper } = setUp();
    mkdirSync(join(workspace, 'pkg'));
    chmodSync(join(workspace, 'pkg'), 0o750);
    compiled(workspace, upper, 'pkg/__pycache__/helper.cpython-311.pyc');
    const then = new Date('2020-01-02T03:04:05Z');
    utimesSync(join(workspace, 'pkg'), then, then);
    chmodSync(join(upper, 'pkg', '__pycache__'), 0o751);
    await seed.keep(upper, ['pkg/__pycache__/helper.cpython-311.pyc']);
    const [layer] = await seed.layers();
    const pkg = statSync(join(layer, 'pkg'));
    assert.equal(pkg.mode & 0o7777, 0o750);
    assert.equal(pkg.mtime.getTime(), then.getTime());
    assert.equal(statSync(join(layer, 'pkg', '__pycache__')).mode & 0o7777, 0o751, 'a folder the workspace lacks takes the baseline\'s');
  });

  it('opens a bytecode folder beside the Python sources of read-only test folders only', async () => {
    const { seed, workspace, upper } = setUp();
    mkdirSync(join(workspace, 'tests', 'unit'), { recursive: true });
    chmodSync(join(workspace, 'tests'), 0o755);
    const files = ['pkg/calc.py', 'tests/test_a.py', 'tests/unit/test_b.py', 'tests/unit/test_c.py', 'tests/data/input.json', 'testing/conftest.py', 'test_top.py'];
    const opened = await seed.openFolders(upper, files, ['tests', 'test_top.py']);
    assert.deepEqual(opened, ['tests/__pycache__', 'tests/unit/__pycache__']);
    for (const rel of opened) assert.ok(statSync(join(upper, rel)).isDirectory(), rel);
    assert.equal(statSync(join(upper, 'tests')).mode & 0o7777, 0o755);
    assert.ok(!existsSync(join(upper, 'pkg')));
  });

  it("opens none where git's listing names a folder that is now a link, and stops before the setup outgrows one argument", async () => {
    const { seed, workspace, upper } = setUp();
    mkdirSync(join(workspace, 'tests', 'fixtures'), { recursive: true });
    symlinkSync('fixtures', join(workspace, 'tests', 'data'));
    assert.deepEqual(await seed.openFolders(upper, ['tests/data/helper.py', 'tests/fixtures/helper.py'], ['tests']), ['tests/fixtures/__pycache__']);
    assert.ok(!existsSync(join(upper, 'tests', 'data')), 'the link stays visible to the baseline');
    const many = Array.from({ length: 600 }, (_, i) => `tests/roots/test-root-number-${i}/conf.py`);
    for (const rel of many) mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    const opened = await seed.openFolders(upper, many, ['tests']);
    assert.ok(opened.length > 20 && opened.length < many.length, `${opened.length} folders opened`);
    assert.ok(opened.reduce((bytes, rel) => bytes + join(workspace, rel).length, 0) <= 16 * 1024);
  });

  it("starts the next request's first runs from what is still current of the layer this request's baseline left", async () => {
    const first = setUp();
    const { workspace, warmRoot } = first;
    const kept = ['pkg/__pycache__/helper.cpython-311.pyc', 'pkg/__pycache__/edited.cpython-311.pyc', 'pkg/__pycache__/util.cpython-311.pyc', 'pkg/gone/__pycache__/old.cpython-311.pyc', 'tests/__pycache__/test_calc.cpython-311-pytest-8.3.3.pyc'];
    for (const rel of kept) compiled(workspace, first.upper, rel);
    await first.seed.keep(first.upper, kept);
    await first.warm.settled();

    // Between the requests the user edits a module, deletes a package, and asks about another file.
    write(workspace, 'pkg/edited.py', '# edited, longer than it was\n');
    remove(join(workspace, 'pkg', 'gone'));
    const next = setUp('pkg/helper.py', { workspace, warmRoot });
    const [prior] = await next.seed.layers();
    assert.ok(prior, "the last request's layer, before this request's baseline is in");
    assert.deepEqual(readdirSync(join(prior, 'pkg', '__pycache__')), ['util.cpython-311.pyc'], "not an edited module's, nor this request's file under repair's");
    assert.ok(!existsSync(join(prior, 'pkg', 'gone')), 'no folder the workspace no longer has');
    assert.match(next.said.join('\n'), /python's bytecode: the baseline, and a run beside it, read what the last request's baseline on this workspace compiled where the sources are unchanged \(2 files, kept in .*\)/);

    // The baseline compiles the edited module: its layer holds that and what it read from the last request's.
    compiled(workspace, next.upper, 'pkg/__pycache__/edited.cpython-311.pyc');
    await next.seed.keep(next.upper, ['pkg/__pycache__/edited.cpython-311.pyc']);
    const [layer] = await next.seed.layers();
    assert.notEqual(layer, prior);
    assert.deepEqual(readdirSync(join(layer, 'pkg', '__pycache__')).sort(), ['edited.cpython-311.pyc', 'util.cpython-311.pyc']);
    assert.deepEqual(readdirSync(join(layer, 'tests', '__pycache__')), ['test_calc.cpython-311-pytest-8.3.3.pyc']);
    await next.warm.settled();
    const third = setUp('pkg/util.py', { workspace, warmRoot });
    const [again] = await third.seed.layers();
    assert.deepEqual(readdirSync(join(again, 'pkg', '__pycache__')), ['edited.cpython-311.pyc']);
    // A bytecode folder the workspace lacks keeps the attributes the baseline's run gave it, request after request.
    const made = statSync(join(first.upper, 'tests', '__pycache__'));
    for (const dir of [prior, layer, again]) {
      const kept = statSync(join(dir, 'tests', '__pycache__'));
      assert.equal(kept.mode & 0o7777, made.mode & 0o7777, dir);
      assert.ok(Math.abs(kept.mtimeMs - made.mtimeMs) < 1, `${dir}: ${kept.mtimeMs} against ${made.mtimeMs}`); // set in whole ms
    }
  });

  it('keeps nothing under a folder the workspace has made a link since, which the layer would hide', async () => {
    const first = setUp();
    const { workspace, warmRoot } = first;
    compiled(workspace, first.upper, 'lib/__pycache__/helper.cpython-311.pyc');
    compiled(workspace, first.upper, 'pkg/__pycache__/util.cpython-311.pyc');
    await first.seed.keep(first.upper, ['lib/__pycache__/helper.cpython-311.pyc', 'pkg/__pycache__/util.cpython-311.pyc']);
    await first.warm.settled();
    // `mv` keeps the sources' times: their bytecode's headers still match through the link.
    mkdirSync(join(workspace, 'vendor'));
    renameSync(join(workspace, 'lib'), join(workspace, 'vendor', 'lib'));
    symlinkSync(join('vendor', 'lib'), join(workspace, 'lib'));
    const next = setUp('pkg/calc.py', { workspace, warmRoot });
    const [prior] = await next.seed.layers();
    assert.ok(prior);
    assert.deepEqual(readdirSync(prior), ['pkg']);
    await next.seed.keep(next.upper, []);
    const [layer] = await next.seed.layers();
    assert.deepEqual(readdirSync(layer), ['pkg']);
  });

  it('starts cold where nothing of the last request is current', async () => {
    const first = setUp();
    compiled(first.workspace, first.upper, 'pkg/__pycache__/helper.cpython-311.pyc');
    await first.seed.keep(first.upper, ['pkg/__pycache__/helper.cpython-311.pyc']);
    await first.warm.settled();
    const next = setUp('pkg/helper.py', { workspace: first.workspace, warmRoot: first.warmRoot });
    assert.deepEqual(await next.seed.layers(), []);
    assert.ok(!existsSync(join(next.requestDir, 'bytecode-prior')));
  });
});
