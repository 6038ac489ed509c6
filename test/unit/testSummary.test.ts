// The summary parser against real captured runner output (test/fixtures/summaries); live node --test and pytest runs: test/e2e/testResults/testSummary.test.ts.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseTestSummary, testsRun } from '../../src/core/testResults/summary';
import type { TestSummary } from '../../src/core/testResults/summary';
import { fixturesDir } from './helpers/paths';

const summariesDir = join(fixturesDir, 'summaries');
const fixture = (name: string) => readFileSync(join(summariesDir, `${name}.txt`), 'utf8');
const s = (runner: TestSummary['runner'], passed: number, failed: number, skipped: number): TestSummary => ({ runner, passed, failed, skipped });

// Each fixture is a real run's combined stdout+stderr (trimmed of stack frames only); the comment says what it shows.
const fixtures: Array<[name: string, expected: TestSummary | undefined]> = [
  ['node-tap-pass', s('node', 3, 0, 0)],
  ['node-tap-fail', s('node', 4, 1, 0)],
  ['node-tap-skip', s('node', 2, 0, 2)], // one skip, one todo
  ['node-tap-cancelled', s('node', 1, 1, 0)], // a test that timed out is "cancelled": it started, so it failed
  ['node-tap-exit-at-import', s('node', 1, 0, 0)], // node reports the file that exited 0 as one passing test
  ['node-tap-no-files', s('node', 0, 0, 0)],
  ['node-spec-pass', s('node', 3, 0, 0)],
  ['node-spec-fail', s('node', 4, 1, 0)], // the summary comes before the failure details
  ['node-spec-skip', s('node', 2, 0, 2)],
  ['node-spec-exit-at-import', s('node', 1, 0, 0)],
  ['node-spec-tty-fail', s('node', 4, 1, 0)], // through a pseudo-terminal: colours and \r\n
  ['node-npm-fail', s('node', 4, 1, 0)], // `npm test` with its `> calc@1.0.0 test` preamble
  ['jest-pass', s('jest', 3, 0, 0)],
  ['jest-fail', s('jest', 4, 1, 1)],
  ['jest-skip', s('jest', 3, 0, 2)], // one skip, one todo
  ['jest-exit-at-import', undefined], // "process.exit called with "0"", exit code 0, and no summary at all
  ['jest-no-tests', undefined],
  ['jest-compile-error', s('jest', 0, 0, 0)], // `Tests:       0 total`
  ['vitest-pass', s('vitest', 3, 0, 0)],
  ['vitest-fail', s('vitest', 4, 1, 1)],
  ['vitest-skip', s('vitest', 2, 0, 2)],
  ['vitest-tty-fail', s('vitest', 4, 1, 1)],
  ['vitest-exit-at-import', s('vitest', 0, 0, 0)], // `Tests  no tests`, exit code 1
  ['vitest-compile-error', s('vitest', 0, 0, 0)],
  ['vitest-no-files', undefined],
  ['mocha-pass', s('mocha', 3, 0, 0)],
  ['mocha-fail', s('mocha', 4, 1, 2)],
  ['mocha-skip', s('mocha', 2, 0, 1)],
  ['mocha-exit-at-import', undefined], // mocha prints nothing and exits 0
  ['mocha-no-files', undefined],
  ['pytest-pass', s('pytest', 3, 0, 0)],
  ['pytest-fail', s('pytest', 4, 2, 1)], // 1 failed + 1 error
  ['pytest-q-fail', s('pytest', 4, 2, 1)],
  ['pytest-skip', s('pytest', 2, 0, 1)],
  ['pytest-xfail', s('pytest', 2, 0, 1)], // 1 passed + 1 xpassed, 1 xfailed
  ['pytest-deselect', s('pytest', 2, 0, 0)],
  ['pytest-module-skip', s('pytest', 0, 0, 1)], // pytest.skip(allow_module_level=True)
  ['pytest-no-tests', s('pytest', 0, 0, 0)],
  ['pytest-compile-error', s('pytest', 0, 1, 0)], // `1 error` during collection
  ['pytest-exit-at-import', undefined], // os._exit(0) during collection: only the session header, exit code 0
  ['unittest-pass', s('unittest', 3, 0, 0)],
  ['unittest-fail', s('unittest', 3, 2, 3)], // Ran 8: failures=1, errors=1, skipped=2, expected failures=1
  ['unittest-skip', s('unittest', 2, 0, 1)],
  ['unittest-no-tests', s('unittest', 0, 0, 0)], // Python 3.11: `Ran 0 tests` then `OK`
  ['unittest-py313-no-tests', s('unittest', 0, 0, 0)], // 3.12+: `NO TESTS RAN`, exit code 5
  ['unittest-compile-error', s('unittest', 0, 1, 0)],
  ['unittest-exit-at-import', undefined], // os._exit(0): nothing printed, exit code 0
  ['go-pass', s('go', 1, 0, 0)], // without -v one `ok` line per package counts as one test
  ['go-fail', s('go', 2, 1, 0)],
  ['go-cached', s('go', 2, 0, 0)], // `(cached)` counts; `[no tests to run]` and `[no test files]` do not
  ['go-v-pass', s('go', 4, 0, 1)],
  ['go-v-fail', s('go', 5, 1, 2)],
  ['go-v-subtests', s('go', 3, 1, 0)], // subtests roll up into their top-level test
  ['go-exit-at-import', s('go', 1, 0, 0)], // os.Exit(0) in init(): a bare `ok` line, indistinguishable without -v
  ['go-v-exit-at-import', s('go', 1, 0, 0)], // even with -v: no `=== RUN` at all, so nothing marks the run as verbose
  ['go-compile-error', undefined], // `FAIL\tpkg [build failed]` is no result line
  ['cargo-pass', s('cargo', 4, 0, 1)], // unit + integration + doc-tests binaries added
  ['cargo-fail', s('cargo', 1, 1, 1)], // cargo stops after the first failing binary
  ['cargo-exit-in-test', s('cargo', 2, 0, 0)], // process::exit(0) in the code under test: that binary prints no result
  ['cargo-compile-error', undefined],
  ['tap-tape-pass', s('tap', 3, 0, 0)], // tape counts assertions
  ['tap-tape-fail', s('tap', 2, 1, 0)],
  ['tap-perl-pass', s('tap', 2, 0, 2)], // Test::More: plan first, a `# skip` and a failing `# TODO`
  ['tap-perl-fail', s('tap', 1, 1, 0)], // plan last, no `# pass` comments
  ['generic-fail', s('generic', 2, 1, 1)],
  ['npm-missing-script', undefined],
];

describe('parseTestSummary on captured output', () => {
  for (const [name, expected] of fixtures) {
    it(`${name} → ${expected ? `${expected.runner} ${expected.passed}/${expected.failed}/${expected.skipped}` : 'none'}`, () =>
      assert.deepEqual(parseTestSummary(fixture(name)), expected));
  }

  it('every fixture is in the table and under 3 KB', () => {
    const files = readdirSync(summariesDir).filter((f) => f.endsWith('.txt'));
    assert.deepEqual(files.map((f) => f.slice(0, -4)).sort(), fixtures.map(([name]) => name).sort());
    for (const f of files) assert.ok(statSync(join(summariesDir, f)).size < 3072, `${f} is over 3 KB`);
  });
});

describe('parseTestSummary', () => {
  it('finds nothing in empty or blank output', () => {
    assert.equal(parseTestSummary(''), undefined);
    assert.equal(parseTestSummary('\n  \r\n'), undefined);
  });

  it('reads a summary after the output tail dropped the head', () => {
    const text = fixture('node-tap-fail');
    assert.deepEqual(parseTestSummary(`[… 4096 earlier bytes dropped …]\n${text.slice(400)}`), s('node', 4, 1, 0));
  });

  it('adds different runners in one output and names the one that ran the most', () => {
    assert.deepEqual(parseTestSummary(fixture('jest-fail') + fixture('pytest-pass')), s('jest', 7, 1, 1));
    assert.deepEqual(parseTestSummary(fixture('cargo-pass') + fixture('go-v-fail')), s('go', 9, 1, 3));
    // go's `ok  \tpkg` lines are not TAP points, though they start with `ok`.
    assert.deepEqual(parseTestSummary(fixture('go-fail') + fixture('tap-perl-fail')), s('go', 3, 2, 0));
  });

  it('takes the last summary when one runner prints two (a test that runs the runner shows the inner one first)', () => {
    assert.deepEqual(parseTestSummary(fixture('pytest-fail') + fixture('pytest-pass')), s('pytest', 3, 0, 0));
    assert.deepEqual(parseTestSummary(fixture('node-spec-skip') + fixture('node-spec-fail')), s('node', 4, 1, 0));
  });

  it('prefers a runner summary to the generic line, and reads node TAP as node, not plain TAP', () => {
    assert.deepEqual(parseTestSummary(`${fixture('mocha-pass')}\nResults: 1 passed, 1 failed\n`), s('mocha', 3, 0, 0));
    assert.equal(parseTestSummary(fixture('node-tap-pass'))?.runner, 'node');
  });

  // Lines no capture above covers, written in each runner's documented format.
  const lines: Array<[output: string, expected: TestSummary | undefined]> = [
    ['Tests:       2 todo, 3 passed, 5 total', s('jest', 3, 0, 2)],
    ['      Tests  3 failed (3)', s('vitest', 0, 3, 0)],
    ['  0 passing (3ms)\n  2 failing', s('mocha', 0, 2, 0)],
    ['  12 passing (2s)\n  3 pending', s('mocha', 12, 0, 3)],
    ['==== 5 passed, 2 warnings in 61.02s (0:01:01) ====', s('pytest', 5, 0, 0)],
    ['= 2 failed, 1 passed, 3 errors in 0.5s =', s('pytest', 1, 5, 0)],
    ['Ran 4 tests in 0.010s\n\nFAILED (unexpected successes=1)', s('unittest', 3, 1, 0)],
    ['Ran 0 tests in 0.000s\n\nFAILED (errors=1)', s('unittest', 0, 1, 0)], // setUpClass failed
    ['Ran 3 tests in 0.010s', undefined], // cut off before the verdict
    ['test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.00s', s('cargo', 0, 0, 0)],
    ['ok  \tgithub.com/a/b\t0.01s\tcoverage: 80.0% of statements\nFAIL\tgithub.com/a/c\t0.02s', s('go', 1, 1, 0)],
    ['1..3\nok 1\nnot ok 2 - broken\nok 3 # SKIP no network', s('tap', 1, 1, 1)],
    ['ok 1\nok 2', undefined], // no plan: not recognisably TAP
    ['2 passed, 0 failed', s('generic', 2, 0, 0)],
    ['Summary: 10 passed, 2 failed, 1 skipped', s('generic', 10, 2, 1)],
    ['We expect 2 passed, 0 failed here', undefined], // not alone on its line
    ['test result: 2 passed; all good in 0.1s', undefined],
    ['\u001b[1mTests:\u001b[22m       \u001b[31m1 failed\u001b[39m, \u001b[32m2 passed\u001b[39m, 3 total', s('jest', 2, 1, 0)],
    ['  5 passing (4ms)\rprogress 10%\r  6 passing (5ms)', s('mocha', 6, 0, 0)], // only what the terminal would show
  ];
  for (const [output, expected] of lines) {
    it(`${JSON.stringify(output).slice(0, 70)} → ${expected ? `${expected.runner} ${expected.passed}/${expected.failed}/${expected.skipped}` : 'none'}`, () =>
      assert.deepEqual(parseTestSummary(output), expected));
  }
});

describe('testsRun', () => {
  it('is passed + failed: skipped tests did not run', () => {
    assert.equal(testsRun(s('pytest', 4, 2, 7)), 6);
    assert.equal(testsRun(s('generic', 0, 0, 3)), 0);
  });
});
