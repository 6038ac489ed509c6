// Python's bytecode carried from the baseline (bytecodeSeed.ts) on real folders: which files of the baseline's upper
// layer become the later runs' layer, how its folders look, and the bytecode folders opened in read-only test folders.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BytecodeSeed } from '../../src/core/execution/bytecodeSeed';
import type { Logger } from '../../src/core/base/logger';
import { makeTempRoot, remove } from './helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

function folder(): string {
  const dir = makeTempRoot();
  made.push(dir);
  return dir;
}

function write(root: string, rel: string, text = 'x'): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

function setUp(target = 'pkg/calc.py'): { seed: BytecodeSeed; requestDir: string; workspace: string; upper: string; said: string[] } {
  const requestDir = folder();
  const workspace = folder();
  const upper = join(requestDir, 'baseline', 'upper');
  mkdirSync(upper, { recursive: true });
  const said: string[] = [];
  const logger: Logger = { trace() {}, info: (m) => said.push(m), warn: (m) => said.push(m), error() {} };
  return { seed: new BytecodeSeed(requestDir, workspace, target, logger), requestDir, workspace, upper, said };
}

describe("the baseline's bytecode carried into later runs", () => {
  it("keeps the bytecode the baseline wrote, less the file under repair's in every form", async () => {
    const { seed, upper, said } = setUp();
    assert.deepEqual(seed.layers(), []);
    const written = [
      'pkg/__pycache__/helper.cpython-311.pyc',
      'pkg/__pycache__/calc.cpython-311.pyc',
      'pkg/__pycache__/calc.cpython-311.opt-1.pyc',
      'pkg/__pycache__/calc_extra.cpython-311.pyc',
      'pkg/sub/__pycache__/calc.cpython-311.pyc',
      'tests/__pycache__/test_calc.cpython-311-pytest-8.3.3.pyc',
      'pkg/stray.pyc',
      'pkg/__pycache__/notes.txt',
      '.pytest_cache/v/cache/lastfailed',
    ];
    for (const rel of written) write(upper, rel);
    symlinkSync('/etc/hostname', join(upper, 'pkg', '__pycache__', 'linked.cpython-311.pyc'));
    await seed.keep(upper, [...written, 'pkg/__pycache__/linked.cpython-311.pyc', 'pkg/__pycache__/gone.cpython-311.pyc']);
    const [layer] = seed.layers();
    assert.ok(layer, 'a layer once bytecode was kept');
    const kept = (rel: string) => existsSync(join(layer, rel));
    assert.deepEqual(readdirSync(join(layer, 'pkg', '__pycache__')).sort(), ['calc_extra.cpython-311.pyc', 'helper.cpython-311.pyc']);
    assert.ok(kept('pkg/sub/__pycache__/calc.cpython-311.pyc'), "another folder's module of the same name is not the file under repair");
    assert.ok(kept('tests/__pycache__/test_calc.cpython-311-pytest-8.3.3.pyc'), "pytest's rewritten test module");
    for (const rel of ['pkg/stray.pyc', 'pkg/__pycache__/notes.txt', '.pytest_cache/v/cache/lastfailed']) assert.ok(!kept(rel), rel);
    assert.match(said.join('\n'), /python's bytecode: each later run reads what the baseline compiled \(4 files, 0\.0 MB; the file under repair's left out\)/);
  });

  it('keeps nothing, and adds no layer, when the baseline wrote no bytecode but that of the file under repair', async () => {
    const { seed, upper, said } = setUp('calc.py');
    write(upper, '__pycache__/calc.cpython-311.pyc');
    await seed.keep(upper, ['__pycache__/calc.cpython-311.pyc', 'out.log']);
    assert.deepEqual(seed.layers(), []);
    assert.deepEqual(said, []);
  });

  it("gives the layer's folders the workspace's modes and times, which a run sees in place of the workspace's", async () => {
    const { seed, workspace, upper } = setUp();
    mkdirSync(join(workspace, 'pkg'));
    chmodSync(join(workspace, 'pkg'), 0o750);
    const then = new Date('2020-01-02T03:04:05Z');
    utimesSync(join(workspace, 'pkg'), then, then);
    write(upper, 'pkg/__pycache__/helper.cpython-311.pyc');
    chmodSync(join(upper, 'pkg', '__pycache__'), 0o751);
    await seed.keep(upper, ['pkg/__pycache__/helper.cpython-311.pyc']);
    const [layer] = seed.layers();
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
});
