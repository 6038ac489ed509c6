// Stage 1's command: the paths, filters and packages a test command names are dropped, option values kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cargoAdapter } from '../../src/core/testResults/cargo';
import { goAdapter } from '../../src/core/testResults/go';
import { nodeAdapter } from '../../src/core/testResults/node';
import { pytestAdapter } from '../../src/core/testResults/pytest';
import { mochaAdapter } from '../../src/core/testResults/mocha';
import { describeNarrowing, narrowBase, selectionCommand, selectionStopsInOrder, stoppingAtFirstFailure, stopsEarly } from '../../src/core/testResults/selection';
import type { RunnerName } from '../../src/core/testResults/types';

const cases: Array<[runner: RunnerName, base: string, narrowed: string, dropped: string[], kept?: string[]]> = [
  ['node', 'node --test', 'node --test', []],
  ['node', "node --test 'test/**/*.test.js'", 'node --test', ['test/**/*.test.js']],
  ['node', 'node --import tsx --test --test-concurrency 2 test/', 'node --import tsx --test --test-concurrency 2', ['test/']],
  ['mocha', './node_modules/.bin/mocha --require ./setup.js --recursive test/ spec/', './node_modules/.bin/mocha --require ./setup.js --recursive', ['test/', 'spec/']],
  ['mocha', 'npx --yes mocha --spec test/a.js -R dot', 'npx --yes mocha -R dot', ['test/a.js']],
  ['jest', 'CI=1 ./node_modules/.bin/jest --config jest.config.js src', 'CI=1 ./node_modules/.bin/jest --config jest.config.js', ['src']],
  ['vitest', './node_modules/.bin/vitest run test/unit --reporter dot', './node_modules/.bin/vitest run --reporter dot', ['test/unit']],
  ['pytest', 'pytest --doctest-modules toolz/', 'pytest --doctest-modules', ['toolz/']],
  ['pytest', 'python3 -m pytest -q -k "not slow" -p no:randomly tests', 'python3 -m pytest -q -k "not slow" -p no:randomly', ['tests']],
  ['pytest', 'pytest -vx -kfoo tests', 'pytest -vx -kfoo', ['tests']],
  // Unknown option: its next word may be its value, so it stays (and the log says so).
  ['pytest', 'pytest --my-plugin-opt conf.txt tests', 'pytest --my-plugin-opt conf.txt', ['tests'], ['conf.txt']],
  ['pytest', 'pytest --maxfail 3 --unknown-flag', 'pytest --maxfail 3 --unknown-flag', []],
  ['go', 'go test -count=1 -tags integration ./...', 'go test -count=1 -tags integration', ['./...']],
  ['go', 'go test ./a ./b -args -x 1', 'go test -args -x 1', ['./a', './b']],
  ['cargo', 'cargo test --workspace parse -- --test-threads=1', 'cargo test --workspace -- --test-threads=1', ['parse']],
];

describe('narrowBase', () => {
  for (const [runner, base, narrowed, dropped, kept = []] of cases) {
    it(`${runner}: ${base}`, () => {
      assert.deepEqual(narrowBase(runner, base), { base: narrowed, dropped, kept });
    });
  }
});

describe('selectionCommand', () => {
  it('node: only the failing test\'s file, not the folder the command names', () => {
    const command = selectionCommand(nodeAdapter, 'node --test test/', ['test/b.test.js > adds'])?.command('/r');
    assert.ok(command?.endsWith(' test/b.test.js'), command);
    assert.ok(!/ test\/ /.test(`${command} `), command);
  });

  it('pytest with --doctest-modules and a folder: node ids alone', () => {
    const command = selectionCommand(pytestAdapter, 'pytest --doctest-modules toolz/', ['toolz/tests/test_a.py::test_x'])?.command('/r');
    // The folder gone, the node id alone at the end (the report comes from the -p plugin).
    assert.ok(command?.endsWith(' pytest --doctest-modules -p no:cacheprovider -p verified_fix_pytest_report toolz/tests/test_a.py::test_x'), command);
    assert.ok(!/ toolz\/ /.test(`${command} `), command);
  });

  it('go: the failing test\'s package in place of ./...', () => {
    const command = selectionCommand(goAdapter, 'go test ./...', ['example.com/m/b > TestB'])?.command('/r');
    assert.equal(command, "go test -json -run '^(?:TestB)$' example.com/m/b > /r");
  });

  it('cargo: the failing tests\' targets', () => {
    const command = selectionCommand(cargoAdapter, 'cargo test', ['demo (src/lib.rs) > tests::a', 'api (tests/api.rs) > b'])?.command('/r');
    assert.equal(command, 'cargo test --no-fail-fast --lib --test api -- --exact tests::a b > /r 2>&1');
  });

  it('cargo: targets the user chose are left alone', () => {
    const command = selectionCommand(cargoAdapter, 'cargo test --tests', ['api (tests/api.rs) > b'])?.command('/r');
    assert.equal(command, 'cargo test --no-fail-fast --tests -- --exact b > /r 2>&1');
  });

  it('the log line names what was dropped and what had to stay', () => {
    assert.equal(describeNarrowing('pytest', 'pytest --doctest-modules toolz/'), 'stage 1 (the failing tests): starts only their files, in place of `toolz/` from the command');
    assert.match(describeNarrowing('pytest', 'pytest --odd conf tests'), /kept `conf`, which may be the value of an option/);
    assert.match(describeNarrowing('unittest', 'python3 -m unittest discover -s tests'), /every test module is imported\) and runs only the failing ones$/);
  });
});

describe('stoppingAtFirstFailure', () => {
  const cases: Array<[runner: RunnerName, base: string, stopping: string]> = [
    ['mocha', './node_modules/.bin/mocha -R spec --check-leaks', './node_modules/.bin/mocha --bail -R spec --check-leaks'],
    ['mocha', 'NODE_ENV=test npx --yes mocha --no-config', 'NODE_ENV=test npx --yes mocha --bail --no-config'],
    // The option goes before the user's words, where no option of theirs can take it for its value.
    ['mocha', 'mocha --require', 'mocha --bail --require'],
    ['pytest', 'python3 -m pytest -q', 'python3 -m pytest -x -q'],
    ['pytest', 'pytest --confcutdir=. -p no:randomly', 'pytest -x --confcutdir=. -p no:randomly'],
    // The user's own choice stands.
    ['mocha', 'mocha -b -R dot', 'mocha -b -R dot'],
    ['mocha', 'mocha --no-bail', 'mocha --no-bail'],
    ['pytest', 'pytest -vx', 'pytest -vx'],
    ['pytest', 'pytest --maxfail=3', 'pytest --maxfail=3'],
    ['pytest', 'pytest --maxfail 3', 'pytest --maxfail 3'],
    ['vitest', './node_modules/.bin/vitest run --globals', './node_modules/.bin/vitest run --bail=1 --globals'],
    ['vitest', './node_modules/.bin/vitest run --bail 3', './node_modules/.bin/vitest run --bail 3'],
    // Runners without such an option (jest's --bail counts test files) are left as they are.
    ['jest', './node_modules/.bin/jest --ci', './node_modules/.bin/jest --ci'],
    ['node', 'node --test', 'node --test'],
  ];
  for (const [runner, base, stopping] of cases) {
    it(`${runner}: ${base}`, () => assert.equal(stoppingAtFirstFailure(runner, base), stopping));
  }

  it('stage 1\'s command stops at the first failure; the same selection for other runs does not', () => {
    const ids = ['test/a.js > caps'];
    const stopping = selectionCommand(mochaAdapter, 'mocha -R spec test/', ids, { stopAtFirstFailure: true })?.command('/r', '/o');
    assert.match(stopping ?? '', /mocha --bail -R spec /);
    assert.ok(!/ test\/ /.test(`${stopping} `), stopping);
    assert.ok(!/--bail/.test(selectionCommand(mochaAdapter, 'mocha -R spec test/', ids)?.command('/r', '/o') ?? ''));
    const pytest = selectionCommand(pytestAdapter, 'python3 -m pytest -q tests', ['tests/test_a.py::test_x'], { stopAtFirstFailure: true })?.command('/r', '/o');
    assert.match(pytest ?? '', /python3 -m pytest -x -q /);
  });
});

describe('stopsEarly', () => {
  it('finds the option with which the user\'s command ends a run at a failure', () => {
    const cases: Array<[RunnerName, string, string | undefined]> = [
      ['mocha', 'mocha --require test/support/env --reporter spec --bail --check-leaks test/ test/acceptance/', '--bail'],
      ['mocha', 'mocha -b test/', '-b'],
      ['mocha', 'mocha --no-bail test/', undefined],
      ['mocha', 'mocha --reporter spec test/', undefined],
      ['pytest', 'python3 -m pytest -vx tests', '-x'],
      ['pytest', 'pytest --exitfirst', '--exitfirst'],
      ['pytest', 'pytest --maxfail=2 -q', '--maxfail=2'],
      ['pytest', 'pytest --maxfail 2', '--maxfail'],
      ['pytest', 'pytest -rx tests', undefined], // -r's value
      ['pytest', 'pytest -k -x tests', undefined], // -k's value
      ['jest', 'jest --bail', undefined], // the runs this tool reads add --bail=0: jest's bail skips the report
      ['vitest', 'vitest run --bail=1', '--bail=1'],
      ['go', 'go test -failfast ./...', '-failfast'],
      ['go', 'go test ./... -args -failfast', undefined], // the test binary's
      ['node', 'node --test', undefined],
      ['pytest', 'pytest --maxfail=0', undefined],
      ['pytest', 'pytest --maxfail 0 tests', undefined],
      ['pytest', 'pytest -x --maxfail=0', undefined], // the last one decides
      ['pytest', 'pytest --sw', '--sw'],
      ['mocha', 'mocha --bail --no-bail test/', undefined],
      ['vitest', 'vitest run --bail 0', undefined],
      ['go', 'go test -failfast=true ./...', '-failfast=true'],
      ['go', 'go test -failfast=false ./...', undefined],
    ];
    for (const [runner, base, option] of cases) assert.equal(stopsEarly(runner, base), option, `${runner}: ${base}`);
  });
  it('reads from the run\'s report what its configuration set, where the command does not say it', () => {
    assert.equal(mochaAdapter.stopsEarly?.(JSON.stringify({ passes: [], failures: [], pending: [], bail: true })), 'bail');
    assert.equal(mochaAdapter.stopsEarly?.(JSON.stringify({ passes: [], failures: [], pending: [] })), undefined);
    assert.equal(pytestAdapter.stopsEarly?.('{"maxfail": 1}\n{"id": "t.py::a", "outcome": "failed", "when": "call"}\n'), 'maxfail=1');
    assert.equal(pytestAdapter.stopsEarly?.('{"id": "t.py::a", "outcome": "failed", "when": "call"}\n'), undefined);
    assert.equal(pytestAdapter.stopsEarly?.('<testsuite><testcase name="a"/></testsuite>'), undefined);
  });
});

describe('selectionStopsInOrder', () => {
  it('holds where one process goes through the selected files in order and stops at the first failure', () => {
    const cases: Array<[RunnerName, string, boolean]> = [
      ['mocha', 'mocha --reporter spec test/', true], // stage 1 adds --bail
      ['mocha', 'mocha -b test/', true],
      ['mocha', 'mocha --no-bail test/', false], // the user's word stands: every failing test runs
      ['mocha', 'mocha --parallel test/', false], // files in workers: the others go on
      ['mocha', 'mocha -p test/', false],
      ['mocha', 'mocha --jobs=2 --parallel', false],
      ['pytest', 'python3 -m pytest tests', true],
      ['pytest', 'pytest --maxfail=3 -q', false], // stops after the third
      ['pytest', 'pytest --maxfail=1 -q', true],
      ['pytest', 'pytest -vx tests', true],
      ['pytest', 'pytest -p randomly tests', false], // shuffles
      ['mocha', 'mocha --sort test/', false], // sorts the files
      ['mocha', 'mocha -S test/', false],
      ['pytest', 'pytest -x --maxfail=0', false],
      ['pytest', 'pytest -n 4 tests', false], // pytest-xdist
      ['pytest', 'pytest -nauto', false],
      ['pytest', 'pytest --numprocesses=2', false],
      ['pytest', 'pytest -p no:cacheprovider tests', true], // a plugin, not workers
      ['jest', 'jest', false], // no in-order stop: the runs this tool reads add --bail=0
      ['vitest', 'vitest run', false], // files in parallel workers
      ['node', 'node --test', false],
      ['tape', 'tape test/*.js', false],
    ];
    for (const [runner, base, holds] of cases) assert.equal(selectionStopsInOrder(runner, base), holds, `${runner}: ${base}`);
  });
});
