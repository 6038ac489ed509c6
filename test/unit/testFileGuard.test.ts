// The test-file guard: what counts as tests, and what a run gets read-only (what it changed: isolation.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTestRelated, readOnlyTestPaths } from '../../src/core/security/testFiles';

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
