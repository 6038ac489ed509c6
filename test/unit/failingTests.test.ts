// The host's failing-test model: which tests a runner's output says failed, where a test file declares them, and the
// name a Testing view item (as VS Code 1.100 passes it: id, label, no stack) gives.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { stripAnsi } from '../../src/core/base/ansi';
import { failingTestNames, leafName, testDeclarationLine, testNameOfItem } from '../../src/host/model/failingTests';
import { fixturesDir } from './helpers/paths';

describe('failing test names in output', () => {
  it('reads node --test (TAP and spec), mocha, jest, vitest and pytest', () => {
    const tap = 'TAP version 13\n# Subtest: clamp keeps a value\nok 1 - clamp keeps a value\nnot ok 2 - clamp keeps the upper bound\n  ---\n';
    assert.deepEqual(failingTestNames(tap), ['clamp keeps the upper bound']);
    const spec = '✔ clamp keeps a value (0.5ms)\n✖ clamp keeps the upper bound (1.2ms)\n  AssertionError\n✖ failing tests:\n\ntest at test/range.test.js:7:1\n✖ clamp keeps the upper bound (1.2ms)\n';
    assert.deepEqual(failingTestNames(spec), ['clamp keeps the upper bound']);
    const mocha = '  range\n    ✓ keeps a value\n    1) keeps the upper bound\n\n  1 passing\n  1 failing\n\n  1) range\n       keeps the upper bound:\n';
    // Mocha's detail header (`1) range`) names the suite too; only a test's own declaration gets a lens, so it is harmless.
    assert.equal(failingTestNames(mocha)[0], 'keeps the upper bound');
    assert.deepEqual(failingTestNames('  ● range › clamp keeps the upper bound\n\n    expect(received)'), ['clamp keeps the upper bound']);
    assert.deepEqual(failingTestNames(' × test/range.test.js > range > keeps the upper bound 3ms\n'), ['keeps the upper bound']);
    assert.deepEqual(failingTestNames('FAILED tests/test_fare.py::test_child - assert 7 == 6\n'), ['test_child']);
    assert.deepEqual(failingTestNames('all good\n# pass 3\n'), []);
  });

  it('reads `node --test` as a terminal delivers it (colours, CR LF, the "failing tests:" summary repeating each)', () => {
    // Captured from a real `node --test` (Node 20) in a terminal on the UI tests' fixture; only its folder was renamed.
    const output = readFileSync(join(fixturesDir, 'failure-output', 'node20-spec-terminal.txt'), 'utf8');
    assert.match(output, /\r\n/);
    assert.deepEqual(failingTestNames(stripAnsi(output)), ['sumTo', 'sumRange']);
    const testFile = readFileSync(join(fixturesDir, 'integration-ws', 'sum.test.js'), 'utf8');
    assert.equal(testDeclarationLine(testFile, 'sumTo'), 5);
  });

  it('keeps a reporter\'s innermost name', () => {
    assert.equal(leafName('suite › inner › keeps it'), 'keeps it');
    assert.equal(leafName('file.test.js > keeps it'), 'keeps it');
  });
});

describe('test declarations', () => {
  const js = "const test = require('node:test');\n\ntest('clamp keeps a value', () => {});\nit(\"clamp keeps the upper bound\", () => {});\ntest.skip(`odd (name)?`, () => {});\n";
  it('finds test(…), it(…) and their modifiers with any quote, names with regex characters', () => {
    assert.equal(testDeclarationLine(js, 'clamp keeps a value'), 2);
    assert.equal(testDeclarationLine(js, 'clamp keeps the upper bound'), 3);
    assert.equal(testDeclarationLine(js, 'odd (name)?'), 4);
    assert.equal(testDeclarationLine(js, 'clamp'), undefined, 'a prefix is not the test');
  });
  it('finds pytest functions', () => {
    assert.equal(testDeclarationLine('import x\n\ndef test_child():\n    assert 1\n', 'test_child'), 2);
  });
});

describe('Testing view items as VS Code 1.100 passes them', () => {
  it('names the test by its label, else the end of its id', () => {
    assert.equal(testNameOfItem({ id: 'file:///w/test/range.test.js/clamp keeps the upper bound', label: 'clamp keeps the upper bound' }), 'clamp keeps the upper bound');
    assert.equal(testNameOfItem({ id: 'tests/test_fare.py::test_child', label: '' }), 'test_child');
    assert.equal(testNameOfItem(undefined), undefined);
    assert.equal(testNameOfItem({ id: 3 }), undefined);
  });
});
