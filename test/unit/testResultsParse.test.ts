// Each adapter's parse against reports captured from real runs (test/fixtures/test-results), and against broken input.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cargoAdapter } from '../../src/core/testResults/cargo';
import { goAdapter } from '../../src/core/testResults/go';
import { jestAdapter } from '../../src/core/testResults/jest';
import { mochaAdapter } from '../../src/core/testResults/mocha';
import { nodeAdapter } from '../../src/core/testResults/node';
import { pytestAdapter } from '../../src/core/testResults/pytest';
import { MESSAGE_LIMIT } from '../../src/core/testResults/reportText';
import type { RunnerAdapter, TestOutcome } from '../../src/core/testResults/types';
import { unittestAdapter } from '../../src/core/testResults/unittest';
import { vitestAdapter } from '../../src/core/testResults/vitest';
import { fixturesDir } from './helpers/paths';

const dir = join(fixturesDir, 'test-results');
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

// The projects the reports were captured in: jest, vitest and mocha report absolute paths under them.
const cwd = (project: string) => `/tmp/tr-scratch/${project}`;
const P = 'passed' as const;
const F = 'failed' as const;
const S = 'skipped' as const;
const ODD = `it's "quoted" $HOME (a|b) [x]* \\ ok`;

type Expected = Array<[TestOutcome, string]>;
const jsFull = (odd: string, nested: string): Expected => [
  [P, `test/names.test.js > odd names > ${odd}`],
  [P, `test/names.test.js > odd names > ${nested}`],
  [P, 'test/names.test.js > top level'],
  [P, 'test/range.test.js > inRange > includes lo'],
  [F, 'test/range.test.js > inRange > includes hi'],
  [P, 'test/range.test.js > inRange > rejects below'],
  [S, 'test/range.test.js > inRange > later'],
];
const jsOnly: Expected = [
  [P, `test/names.test.js > odd names > ${ODD}`],
  [S, 'test/names.test.js > odd names > nested group > includes hi'],
  [S, 'test/names.test.js > top level'],
  [S, 'test/range.test.js > inRange > includes lo'],
  [F, 'test/range.test.js > inRange > includes hi'],
  [S, 'test/range.test.js > inRange > rejects below'],
  [S, 'test/range.test.js > inRange > later'],
];

// Results are compared as sorted lists: the order of files in a report depends on which finished first.
const table: Array<[file: string, adapter: RunnerAdapter, cwd: string, expected: Expected]> = [
  ['node-fail.jsonl', nodeAdapter, '', jsFull(ODD, 'nested group > includes hi')],
  // Node 20 matches own names: the nested `includes hi` of the other file ran too; the rest is reported skipped.
  ['node-only.jsonl', nodeAdapter, '', jsOnly.map(([o, id]) => [id.includes('nested group') ? P : o, id])],
  [
    'node-edge.jsonl',
    nodeAdapter,
    '',
    [
      [F, 'test/hooks.test.js > with hook > a'], // cancelled when the before hook threw: the suite itself is not listed
      [F, 'test/hooks.test.js > with hook > b'],
      [F, 'test/hooks.test.js > throws'], // a describe body that threw: no test of its own, so the suite is
      [F, 'test/hooks.test.js > slow'], // timed out
      [S, 'test/hooks.test.js > todo one'],
      [F, 'test/syntax.test.js'], // did not load
    ],
  ],
  ['jest-fail.json', jestAdapter, cwd('jest'), jsFull(ODD, 'nested group > includes hi')],
  ['jest-only.json', jestAdapter, cwd('jest'), jsOnly],
  [
    'jest-edge.json',
    jestAdapter,
    cwd('jest-edge'),
    [
      [F, 'test/hook.test.js > with hook > a'],
      [F, 'test/hook.test.js > with hook > b'],
      [P, 'test/hook.test.js > ok'],
      [F, 'test/syntax.test.js'],
    ],
  ],
  ['vitest-fail.json', vitestAdapter, cwd('vitest'), jsFull(ODD, 'nested group > includes hi')],
  ['vitest-only.json', vitestAdapter, cwd('vitest'), jsOnly],
  [
    'vitest-edge.json',
    vitestAdapter,
    cwd('vitest-edge'),
    [
      [S, 'test/hook.test.js > with hook > a'], // vitest skips the tests of a suite whose hook threw...
      [S, 'test/hook.test.js > with hook > b'],
      [P, 'test/hook.test.js > ok'],
      [F, 'test/hook.test.js'], // ...and fails the file
      [F, 'test/syntax.test.js'],
    ],
  ],
  // Mocha's JSON joins suite titles with spaces: nesting shows as `odd names nested group`.
  ['mocha-fail.json', mochaAdapter, cwd('mocha'), jsFull(ODD, 'nested group includes hi').map(([o, id]) => [o, id.replace('odd names > nested group includes hi', 'odd names nested group > includes hi')])],
  [
    'mocha-only.json',
    mochaAdapter,
    cwd('mocha'),
    [
      [P, `test/names.test.js > odd names > ${ODD}`],
      [F, 'test/range.test.js > inRange > includes hi'],
    ],
  ],
  ['mocha-hook.json', mochaAdapter, cwd('mocha-edge'), [[P, 'test/hook.test.js > ok'], [F, 'test/hook.test.js > with hook > "before all" hook']]],
  [
    'pytest-fail.xml',
    pytestAdapter,
    '',
    [
      [P, `tests/test_names.py::test_odd[it's "quoted" $HOME (a|b) [x]*]`],
      [P, 'tests/test_names.py::test_odd[plain]'],
      [P, 'tests/test_names.py::test_top_level'],
      [P, 'tests/test_range.py::TestInRange::test_includes_lo'],
      [F, 'tests/test_range.py::TestInRange::test_includes_hi'],
      [S, 'tests/test_range.py::TestInRange::test_later'],
    ],
  ],
  ['pytest-only.xml', pytestAdapter, '', [[F, 'tests/test_range.py::TestInRange::test_includes_hi'], [P, `tests/test_names.py::test_odd[it's "quoted" $HOME (a|b) [x]*]`]]],
  [
    'pytest-edge.xml',
    pytestAdapter,
    '',
    [
      [F, 'tests/test_fixture.py::test_uses'], // its fixture raised: an error, not a failure, but no pass either
      [S, 'tests/test_fixture.py::test_xf'], // xfail
      [F, 'tests/test_fixture.py::test_xpass_strict'],
    ],
  ],
  ['pytest-collect.xml', pytestAdapter, '', [[F, 'tests/test_broken.py']]],
  [
    'go-fail.jsonl',
    goAdapter,
    '',
    [
      [P, 'example.com/demo/strs > TestUpper'],
      [P, 'example.com/demo/strs > TestIncludesHi'],
      [P, 'example.com/demo/calc > TestIncludesLo'],
      [F, 'example.com/demo/calc > TestIncludesHi'],
      [S, 'example.com/demo/calc > TestLater'],
      [P, 'example.com/demo/calc > TestTable'], // its subtests (one named with quotes and spaces) are not listed
    ],
  ],
  ['go-only.jsonl', goAdapter, '', [[F, 'example.com/demo/calc > TestIncludesHi']]],
  [
    'go-edge.jsonl',
    goAdapter,
    '',
    [
      [P, 'example.com/edge/exiter > TestA'],
      [F, 'example.com/edge/exiter > TestExit'], // os.Exit(1): it started and never ended in a failed package
      [F, 'example.com/edge/panicker > TestP'],
      [F, 'example.com/edge/initpanic'], // init panicked before any test
    ],
  ],
  [
    'cargo-fail.txt',
    cargoAdapter,
    '',
    [
      [P, 'demo_range (src/lib.rs) > tests::includes_lo'],
      [S, 'demo_range (src/lib.rs) > tests::later'],
      [F, 'demo_range (src/lib.rs) > tests::includes_hi'],
      [P, 'demo_range (src/lib.rs) > tests::panics'], // printed as `tests::panics - should panic`
      [P, 'demo_range (src/main.rs) > tests::includes_hi'],
      [P, 'integration (tests/integration.rs) > top_level'],
      [P, 'demo_range (doc) > src/lib.rs - in_range (line 1)'],
    ],
  ],
  [
    'cargo-only.txt',
    cargoAdapter,
    '',
    [
      [F, 'demo_range (src/lib.rs) > tests::includes_hi'],
      [P, 'demo_range (src/lib.rs) > tests::panics'],
      [P, 'demo_range (src/main.rs) > tests::includes_hi'], // --exact runs in every binary
    ],
  ],
];

const sorted = (list: Expected) => [...list].sort((a, b) => (a[1] === b[1] ? a[0].localeCompare(b[0]) : a[1].localeCompare(b[1])));

describe('parse on captured reports', () => {
  for (const [file, adapter, folder, expected] of table) {
    it(`${file} → ${expected.length} results`, () => {
      const results = adapter.parse(read(file), folder);
      assert.deepEqual(sorted(results.map((r) => [r.outcome, r.id])), sorted(expected));
      for (const result of results) {
        if (result.outcome !== 'failed') assert.equal(result.message, undefined, `${result.id} has a message but did not fail`);
        else if (result.message) assert.ok(result.message.length <= MESSAGE_LIMIT, `${result.id}'s message is too long`);
      }
    });
  }

  it('every fixture is in the table and under 5 KB', () => {
    const files = readdirSync(dir).filter((f) => f !== 'README.md');
    assert.deepEqual(files.sort(), table.map(([file]) => file).sort());
    for (const f of files) assert.ok(statSync(join(dir, f)).size < 5 * 1024, `${f} is over 5 KB`);
  });

  it('keeps the first lines of each failure, without runner-internal frames', () => {
    const failure = (file: string, adapter: RunnerAdapter, folder: string, id: string) => adapter.parse(read(file), folder).find((r) => r.id === id)?.message ?? '';
    const hi = 'test/range.test.js > inRange > includes hi';
    assert.match(failure('node-fail.jsonl', nodeAdapter, '', hi), /^AssertionError \[ERR_ASSERTION\]: The expression evaluated to a falsy value:\n\n {2}assert\.ok\(inRange\(3, 1, 3\)\)/);
    assert.match(failure('jest-fail.json', jestAdapter, cwd('jest'), hi), /Expected: true\nReceived: false/);
    assert.match(failure('vitest-fail.json', vitestAdapter, cwd('vitest'), hi), /^AssertionError: expected false to be true/);
    assert.match(failure('mocha-fail.json', mochaAdapter, cwd('mocha'), hi), /^AssertionError \[ERR_ASSERTION\]/);
    assert.match(failure('mocha-hook.json', mochaAdapter, cwd('mocha-edge'), 'test/hook.test.js > with hook > "before all" hook'), /^Error: hook boom/);
    assert.match(failure('node-edge.jsonl', nodeAdapter, '', 'test/syntax.test.js'), /SyntaxError: Unexpected token ';'/);
    assert.match(failure('jest-edge.json', jestAdapter, cwd('jest-edge'), 'test/syntax.test.js'), /Test suite failed to run/);
    assert.match(failure('pytest-fail.xml', pytestAdapter, '', 'tests/test_range.py::TestInRange::test_includes_hi'), /^assert False\n.*where False = in_range\(3, 1, 3\)/);
    assert.match(failure('pytest-collect.xml', pytestAdapter, '', 'tests/test_broken.py'), /SyntaxError: invalid syntax/);
    assert.equal(failure('go-fail.jsonl', goAdapter, '', 'example.com/demo/calc > TestIncludesHi'), 'calc_test.go:6: InRange(3, 1, 3) = false, want true');
    assert.match(failure('go-edge.jsonl', goAdapter, '', 'example.com/edge/initpanic'), /^panic: init boom/);
    assert.match(failure('cargo-fail.txt', cargoAdapter, '', 'demo_range (src/lib.rs) > tests::includes_hi'), /panicked at src\/lib\.rs:12:24:\nin_range\(3, 1, 3\) is false/);
    for (const file of ['node-fail.jsonl', 'node-edge.jsonl']) {
      for (const r of nodeAdapter.parse(read(file), '')) assert.doesNotMatch(r.message ?? '', /node:internal/);
    }
  });
});

describe('unittest report', () => {
  it('a test keeps its first failure (a failed subtest, then more lines of the same test); unknown outcomes are dropped', () => {
    const lines = [
      { id: 't.py > A > sub', outcome: 'failed', message: 'AssertionError: 1 != 2' },
      { id: 't.py > A > sub', outcome: 'failed', message: 'AssertionError: 3 != 4' },
      { id: 't.py > A > ok', outcome: 'passed' },
      { id: 't.py > A > odd', outcome: 'weird' },
      { id: 't.py > A > later', outcome: 'skipped' },
    ].map((line) => JSON.stringify(line)).join('\n');
    assert.deepEqual(unittestAdapter.parse(`${lines}\n{"id": "t.py > A > cut`, ''), [
      { id: 't.py > A > sub', outcome: 'failed', message: 'AssertionError: 1 != 2' },
      { id: 't.py > A > ok', outcome: 'passed' },
      { id: 't.py > A > later', outcome: 'skipped' },
    ]);
  });
});

describe('parse on broken reports', () => {
  const adapters = [nodeAdapter, jestAdapter, vitestAdapter, mochaAdapter, pytestAdapter, unittestAdapter, goAdapter, cargoAdapter];
  for (const adapter of adapters) {
    it(`${adapter.name}: empty or garbage gives [] and never throws`, () => {
      for (const text of ['', 'not a report', '{"testResults": 3}', 'null', '[1,2]', '{"tests":[null,{"title":4}]}', '<testcase', '\u0000\u0001']) {
        assert.deepEqual(adapter.parse(text, '/nowhere'), [], JSON.stringify(text));
      }
    });
  }

  it('line-based reports cut short by a kill keep the lines before the cut', () => {
    for (const [file, adapter] of [['node-fail.jsonl', nodeAdapter], ['go-fail.jsonl', goAdapter], ['cargo-fail.txt', cargoAdapter]] as const) {
      const text = read(file);
      const all = adapter.parse(text, '');
      const half = adapter.parse(text.slice(0, Math.floor(text.length / 2)), '');
      assert.ok(half.length > 0 && half.length < all.length, `${file}: ${half.length} of ${all.length}`);
      for (const r of half) assert.ok(all.some((a) => a.id === r.id), `${file}: ${r.id} was not in the full report`);
    }
  });

  it('whole-file reports cut short give [] (a JSON document is not readable in part)', () => {
    const text = read('jest-fail.json');
    assert.deepEqual(jestAdapter.parse(text.slice(0, -10), cwd('jest')), []);
  });

  it('paths outside the run folder stay absolute', () => {
    const results = jestAdapter.parse(read('jest-fail.json'), '/somewhere/else');
    assert.ok(results.every((r) => r.id.startsWith('/tmp/tr-scratch/jest/test/')));
  });
});
