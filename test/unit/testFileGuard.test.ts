// The test-file guard: what counts as tests, what a run gets read-only, and what it must not change or plant.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { changedTestFiles, hashTestFiles, isTestRelated, newRunnerFiles, readOnlyTestPaths } from '../../src/core/testFileGuard';
import { makeWorkspace, remove } from './helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

function write(root: string, rel: string, content = 'x'): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

describe('isTestRelated', () => {
  const table: Array<[path: string, expected: boolean]> = [
    // Test folders: everything inside.
    ['test/x.js', true],
    ['tests/test_a.py', true],
    ['__tests__/a.js', true],
    ['spec/foo_spec.rb', true],
    ['fixtures/data.json', true],
    ['src/__snapshots__/a.test.ts.snap', true],
    ['pkg/testdata/input.txt', true],
    ['src/test/java/FooTest.java', true],
    ['Tests/Unit/Foo.cs', true],
    // Test files by name, anywhere.
    ['src/a.test.ts', true],
    ['src/a.spec.js', true],
    ['src/a-test.js', true],
    ['src/a_spec.rb', true],
    ['test.js', true],
    ['tests.py', true],
    ['pkg/test_util.py', true],
    ['foo_test.go', true],
    ['pkg/foo_test.py', true],
    ['conftest.py', true],
    ['src/conftest.py', true],
    // Files that say how the tests run.
    ['pytest.ini', true],
    ['tox.ini', true],
    ['setup.cfg', true],
    ['pyproject.toml', true],
    ['jest.config.js', true],
    ['vitest.config.mts', true],
    ['jest.config.json', true],
    ['.mocharc.yml', true],
    ['.mocharc', true],
    ['.babelrc', true],
    ['.npmrc', true],
    ['package.json', true],
    ['packages/a/package.json', true],
    ['Cargo.toml', true],
    ['go.mod', true],
    ['.cargo/config.toml', true],
    ['sitecustomize.py', true],
    ['lib/python3.12/site-packages/evil.pth', true],
    // Ordinary code.
    ['src/index.js', false],
    ['src/contest.py', false],
    ['lib/testing.js', false],
    ['src/latest.ts', false],
    ['src/attest.go', false],
    ['docs/testing.md', false],
    ['src/test-utils.js', false],
    ['src/protest/main.py', false],
    ['README.md', false],
    ['tsconfig.json', false],
    ['src/package.json.ts', false],
  ];
  for (const [path, expected] of table) it(`${path} → ${expected}`, () => assert.equal(isTestRelated(path), expected));
});

describe('readOnlyTestPaths', () => {
  it('collapses test folders to one entry each and keeps single test files outside them', () => {
    const files = ['src/index.js', 'src/a.test.ts', 'test/a.js', 'test/b.js', 'test/fixtures/d.json', 'test/unit/deep/e.js', 'package.json', 'README.md', 'lib/spec/s.js'];
    assert.deepEqual(readOnlyTestPaths(files, 'src/index.js'), ['lib/spec', 'package.json', 'src/a.test.ts', 'test']);
  });

  it('keeps the target writable when it lives inside a test folder: that folder is listed file by file', () => {
    const files = ['test/helpers/util.js', 'test/a.js', 'test/fixtures/d.json', 'spec/x.js', 'spec/y.js'];
    const paths = readOnlyTestPaths(files, 'test/helpers/util.js');
    assert.deepEqual(paths, ['spec', 'test/a.js', 'test/fixtures/d.json']);
    assert.ok(!paths.some((path) => path === 'test/helpers/util.js' || 'test/helpers/util.js'.startsWith(`${path}/`)));
  });

  it('never lists the target itself, even when it is a test file', () => {
    assert.deepEqual(readOnlyTestPaths(['src/a.test.ts', 'src/b.test.ts'], 'src/a.test.ts'), ['src/b.test.ts']);
  });

  it('de-duplicates: no entry twice and no entry inside another', () => {
    const files = ['tests/a.py', 'tests/b.py', 'tests/sub/conftest.py', 'tests/sub/fixtures/x.json', 'conftest.py', 'pytest.ini', 'app/main.py', 'app/tests/t.py', 'app/tests/fixtures/y.json'];
    const paths = readOnlyTestPaths(files, 'app/main.py');
    assert.deepEqual(paths, ['app/tests', 'conftest.py', 'pytest.ini', 'tests']);
    for (const path of paths) assert.ok(!paths.some((other) => other !== path && path.startsWith(`${other}/`)), path);
  });

  it('is empty when the workspace has no tests', () => {
    assert.deepEqual(readOnlyTestPaths(['src/a.js', 'README.md'], 'src/a.js'), []);
  });
});

describe('hashTestFiles / changedTestFiles', () => {
  it('reports test files changed, removed or replaced in the copy, not the target or ordinary files', async () => {
    const files = ['src/a.js', 'src/b.js', 'test/a.test.js', 'test/b.test.js', 'test/c.test.js', 'package.json', 'ghost.test.js'];
    const ws = makeWorkspace({ 'src/a.js': 'a', 'src/b.js': 'b', 'test/a.test.js': 'A', 'test/b.test.js': 'B', 'test/c.test.js': 'C', 'package.json': '{}' });
    const copy = makeWorkspace({ 'src/a.js': 'fixed', 'src/b.js': 'changed too', 'test/a.test.js': 'A', 'test/b.test.js': 'B!', 'package.json': '{"scripts":{}}' });
    made.push(ws, copy);
    const hashes = await hashTestFiles(ws, files, 'src/a.js');
    assert.deepEqual([...hashes.keys()].sort(), ['ghost.test.js', 'package.json', 'test/a.test.js', 'test/b.test.js', 'test/c.test.js']);
    // ghost.test.js was missing before and is missing still: no change.
    assert.deepEqual(await changedTestFiles(copy, hashes), ['package.json', 'test/b.test.js', 'test/c.test.js']);
    assert.deepEqual(await changedTestFiles(ws, hashes), []);
  });

  it('does not hash the target even when the target is a test file', async () => {
    const ws = makeWorkspace({ 'a.test.js': 'a', 'b.test.js': 'b' });
    made.push(ws);
    const hashes = await hashTestFiles(ws, ['a.test.js', 'b.test.js'], 'a.test.js');
    assert.deepEqual([...hashes.keys()], ['b.test.js']);
  });
});

describe('newRunnerFiles', () => {
  /** A copy as the executor makes it: listed files, and node_modules linked to the original's. */
  function makeCopy() {
    const original = makeWorkspace({ 'node_modules/lodash/index.js': '', 'node_modules/.bin/x': '', 'node_modules/.package-lock.json': '{}' });
    const copy = makeWorkspace({ 'package.json': '{}', 'src/a.js': '', 'test/a.test.js': '', 'tests/conftest.py': '', 'jest.config.js': '' });
    symlinkSync(join(original, 'node_modules'), join(copy, 'node_modules'));
    made.push(original, copy);
    const listed = new Set(['package.json', 'src/a.js', 'test/a.test.js', 'tests/conftest.py', 'jest.config.js']);
    const linkedEntries = new Map([['node_modules', new Set(readdirSync(join(original, 'node_modules')))]]);
    return { original, copy, listed, linkedEntries };
  }

  it('finds nothing in a copy the run left as it was', async () => {
    const { copy, listed, linkedEntries } = makeCopy();
    assert.deepEqual(await newRunnerFiles(copy, listed, ['node_modules'], linkedEntries), []);
  });

  it('finds new conftest.py, sitecustomize.py, .pth and runner configs anywhere, not listed ones', async () => {
    const { copy, listed, linkedEntries } = makeCopy();
    for (const rel of ['src/conftest.py', 'sitecustomize.py', 'venv/lib/python3.12/site-packages/x.pth', 'packages/b/jest.config.js', 'vitest.config.ts', '.mocharc.json', 'src/package.json', 'src/b.js', 'test/new.test.js']) write(copy, rel);
    // Listed files rewritten in place are for changedTestFiles, not this check.
    write(copy, 'jest.config.js', 'module.exports = { testMatch: [] }');
    assert.deepEqual(await newRunnerFiles(copy, listed, ['node_modules'], linkedEntries), [
      '.mocharc.json',
      'packages/b/jest.config.js',
      'sitecustomize.py',
      'src/conftest.py',
      'src/package.json',
      'venv/lib/python3.12/site-packages/x.pth',
      'vitest.config.ts',
    ]);
  });

  it('finds a new package in a linked folder, but not tool caches (dot entries, __pycache__)', async () => {
    const { original, copy, listed, linkedEntries } = makeCopy();
    write(original, 'node_modules/evil/index.js', 'module.exports = () => true');
    write(original, 'node_modules/.vite/deps/chunk.js');
    write(original, 'node_modules/.cache/babel/x.json');
    mkdirSync(join(original, 'node_modules', '__pycache__'));
    write(original, 'node_modules/lodash/new-file.js');
    assert.deepEqual(await newRunnerFiles(copy, listed, ['node_modules'], linkedEntries), ['node_modules/evil']);
  });

  it('skips .git and tool cache folders in the copy', async () => {
    const { copy, listed, linkedEntries } = makeCopy();
    for (const rel of ['.git/hooks/conftest.py', '.git/package.json', '.pytest_cache/v/conftest.py', '__pycache__/x.pth', '.vite/jest.config.js', '.cache/sitecustomize.py']) write(copy, rel);
    assert.deepEqual(await newRunnerFiles(copy, listed, ['node_modules'], linkedEntries), []);
  });

  it('reports a new file planted as a link, and tolerates a linked folder that is gone', async () => {
    const { copy, listed, linkedEntries } = makeCopy();
    symlinkSync('/dev/null', join(copy, 'src', 'conftest.py'));
    rmSync(join(copy, 'node_modules'));
    assert.deepEqual(await newRunnerFiles(copy, listed, ['node_modules'], linkedEntries), ['src/conftest.py']);
  });

  it('with a workspace folder linked that had no recorded entries, everything in it is new', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'vf-guard-'));
    made.push(tmp);
    write(tmp, 'vendor/pkg/a.py');
    const copy = makeWorkspace({ 'a.py': '' });
    made.push(copy);
    symlinkSync(join(tmp, 'vendor'), join(copy, 'vendor'));
    assert.deepEqual(await newRunnerFiles(copy, new Set(['a.py']), ['vendor'], new Map()), ['vendor/pkg']);
  });
});
