// resolveRunner, table-driven over package.json scripts and direct commands.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, after } from 'node:test';
import { resolveRunner } from '../../src/core/testCommand/runner';
import type { RunnerName } from '../../src/core/testResults/types';
import { makeWorkspace, remove } from './helpers/workspace';

type Scripts = Record<string, string> | undefined;
type Expected = { runner: RunnerName; base: string } | RegExp;

const cleanup: string[] = [];
after(() => remove(...cleanup));

/** A workspace with these package.json scripts (none: no package.json) and these local binaries installed. */
function workspace(scripts: Scripts, bins: readonly string[]): string {
  const files: Record<string, string> = {};
  if (scripts) files['package.json'] = JSON.stringify({ name: 'w', scripts });
  for (const bin of bins) files[`node_modules/.bin/${bin}`] = '#!/bin/sh\n';
  const dir = makeWorkspace(files);
  cleanup.push(dir);
  return dir;
}

const js = ['jest', 'vitest', 'mocha'];

/** A workspace whose `npm test` is jest, with jest `version` installed. */
function jestWorkspace(version: string): string {
  const dir = workspace({ test: 'jest' }, js);
  mkdirSync(join(dir, 'node_modules', 'jest'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'jest', 'package.json'), JSON.stringify({ name: 'jest', version }));
  return dir;
}
const rows: Array<[command: string, scripts: Scripts, bins: readonly string[], expected: Expected]> = [
  // npm, pnpm and yarn scripts, followed to the runner
  ['npm test', { test: 'node --test' }, [], { runner: 'node', base: 'node --test' }],
  ['npm t', { test: 'node --test test/' }, [], { runner: 'node', base: 'node --test test/' }],
  ['npm run unit', { unit: 'node --enable-source-maps --test' }, [], { runner: 'node', base: 'node --enable-source-maps --test' }],
  ['npm run-script unit -s', { unit: 'node --test' }, [], { runner: 'node', base: 'node --test' }],
  ['npm test -- test/a.test.js', { test: 'node --test' }, [], { runner: 'node', base: 'node --test test/a.test.js' }],
  ['pnpm test', { test: 'jest --coverage' }, js, { runner: 'jest', base: './node_modules/.bin/jest --coverage' }],
  ['yarn unit', { unit: 'vitest' }, js, { runner: 'vitest', base: './node_modules/.bin/vitest run' }],
  ['yarn run test', { test: 'vitest run --silent' }, js, { runner: 'vitest', base: './node_modules/.bin/vitest run --silent' }],
  ['npm test', { test: 'vitest --coverage' }, js, { runner: 'vitest', base: './node_modules/.bin/vitest run --coverage' }],
  ['npm test', { test: 'mocha "test/**/*.spec.js"' }, js, { runner: 'mocha', base: './node_modules/.bin/mocha "test/**/*.spec.js"' }],
  ['npm test', { test: 'NODE_ENV=test jest' }, js, { runner: 'jest', base: 'NODE_ENV=test ./node_modules/.bin/jest' }],
  ['CI=1 npm test', { test: "cross-env NODE_ENV='a b' jest" }, js, { runner: 'jest', base: "CI=1 NODE_ENV='a b' ./node_modules/.bin/jest" }],
  ['npm test', { test: 'npm run unit', unit: 'node --test' }, [], { runner: 'node', base: 'node --test' }],
  ['npm test', { test: 'npx jest' }, [], { runner: 'jest', base: 'npx jest' }],
  ['npm test', { test: 'pytest -q' }, [], { runner: 'pytest', base: 'pytest --confcutdir=. -c /dev/null --rootdir=. -q' }],
  ['npm test', { test: 'go test ./...' }, [], { runner: 'go', base: 'go test ./...' }],
  // direct commands, kept as written
  ['node --test', undefined, [], { runner: 'node', base: 'node --test' }],
  ['  node --test test/a.test.js  ', undefined, [], { runner: 'node', base: 'node --test test/a.test.js' }],
  ['npx jest', undefined, [], { runner: 'jest', base: 'npx jest' }],
  ['npx --no-install jest -i', undefined, [], { runner: 'jest', base: 'npx --no-install jest -i' }],
  ['npx vitest run', undefined, [], { runner: 'vitest', base: 'npx vitest run' }],
  ['npx vitest', undefined, [], { runner: 'vitest', base: 'npx vitest run' }],
  ['npx mocha', undefined, [], { runner: 'mocha', base: 'npx mocha' }],
  // a reporter of the user's own is no conflict for mocha: its report comes through a hook
  ['npm test', { test: 'mocha --reporter spec --bail --check-leaks test/ test/acceptance/' }, js, { runner: 'mocha', base: './node_modules/.bin/mocha --reporter spec --bail --check-leaks test/ test/acceptance/' }],
  ['npm test', { test: 'mocha -R dot -O foo=bar' }, js, { runner: 'mocha', base: './node_modules/.bin/mocha -R dot -O foo=bar' }],
  ['pytest', undefined, [], { runner: 'pytest', base: 'pytest --confcutdir=. -c /dev/null --rootdir=.' }],
  // the user's own reporters and report files are kept beside the tool's side channel
  ['npm test', { test: 'node --test --test-reporter=tap' }, [], { runner: 'node', base: 'node --test --test-reporter=tap' }],
  ['npm test', { test: 'ava --tap --timeout 1m' }, ['ava'], { runner: 'ava', base: './node_modules/.bin/ava --tap --timeout 1m' }],
  ['npm test', { test: 'jest --json --outputFile=out.json' }, js, { runner: 'jest', base: './node_modules/.bin/jest --json --outputFile=out.json' }],
  ['pytest --junitxml=out.xml -x', undefined, [], { runner: 'pytest', base: 'pytest --confcutdir=. -c /dev/null --rootdir=. --junitxml=out.xml -x' }],
  ['python -m pytest tests', undefined, [], { runner: 'pytest', base: 'python -m pytest --confcutdir=. tests' }],
  ['python3 -m pytest -q', undefined, [], { runner: 'pytest', base: 'python3 -m pytest --confcutdir=. -c /dev/null --rootdir=. -q' }],
  ['.venv/bin/python3.12 -m pytest', undefined, [], { runner: 'pytest', base: '.venv/bin/python3.12 -m pytest --confcutdir=. -c /dev/null --rootdir=.' }],
  ['go test ./...', undefined, [], { runner: 'go', base: 'go test ./...' }],
  ['CGO_ENABLED=0 go test -count=1 ./...', undefined, [], { runner: 'go', base: 'CGO_ENABLED=0 go test -count=1 ./...' }],
  ['cargo test', undefined, [], { runner: 'cargo', base: 'cargo test' }],
  ['cargo test --workspace -- --test-threads=1', undefined, [], { runner: 'cargo', base: 'cargo test --workspace -- --test-threads=1' }],
  // refused, with the reason
  ['npm test', { test: 'echo "Error: no test specified" && exit 1' }, [], /^the "test" script chains several commands/],
  ['npm test', { test: 'tsc && node --test' }, [], /chains several commands/],
  ['npm test', { test: 'node --test | tee log' }, [], /chains several commands/],
  ['npm test', { test: 'node --test; echo done' }, [], /chains several commands/],
  ['npm test', { test: 'node --test', pretest: 'tsc' }, [], /^the "pretest" script runs with "test"/],
  ['npm run unit', { unit: 'node --test', postunit: 'rm -rf x' }, [], /"postunit" script/],
  ['npm test', { test: 'jest --watch' }, js, /waits for changes instead of finishing \(--watch\); to get per-test results, set verifiedFix\.testCommand \(--test\) to the test runner alone, without --watch$/],
  ['npm test', { test: 'vitest watch' }, js, /^vitest watch is not a single run/],
  ['npm test', { test: 'ava --tap --watch' }, ['ava'], /waits for changes instead of finishing \(--watch\)/],
  ['npm test', { test: 'mocha -w' }, js, /waits for changes/],
  ['node --watch --test', undefined, [], /waits for changes/],
  ['npm test', { test: 'jest' }, [], /^jest is not installed in node_modules\/\.bin/],
  ['npm test', undefined, [], /^package\.json has no "test" script/],
  ['npm run lint', { test: 'node --test' }, [], /no "lint" script/],
  ['npm test', { test: 'NODE_OPTIONS=$NODE_OPTIONS jest' }, js, /expands variables/],
  ['npm test', { test: 'npm test' }, [], /calls scripts more than \d+ deep/],
  ['npm install', { test: 'node --test' }, [], /^npm install does not run a package\.json script/],
  ['yarn', { test: 'node --test' }, [], /does not run a package\.json script/],
  ['npm test --workspace=a', { test: 'node --test' }, [], /npm option --workspace=a cannot be kept/],
  ['npm test', { test: 'node test.js' }, [], /^node test\.js is not a test runner this tool reads$/],
  ['make check', undefined, [], /^make check is not a test runner this tool reads$/],
  ['python3 -m unittest', undefined, [], { runner: 'unittest', base: 'python3 -m unittest' }],
  ['npm test', { test: 'python3 -m unittest discover -s tests -v' }, [], { runner: 'unittest', base: 'python3 -m unittest discover -s tests -v' }],
  ['python3 -m timeit', undefined, [], /^python3 -m timeit is not a test runner this tool reads$/],
  ['go test -run TestX ./...', undefined, [], /selects its own tests \(-run\)/],
  ['go vet ./...', undefined, [], /not a test runner/],
  ['cargo test -q', undefined, [], /changes the lines that name each test/],
  // coverage tools in front of the runner: the runner inside them (the engine's runs leave the tool out)
  ['npm run tests-only', { 'tests-only': "nyc tape 'test/**/*.js'" }, ['nyc', 'tape'], { runner: 'tape', base: "./node_modules/.bin/tape 'test/**/*.js'" }],
  ['npm test', { test: 'c8 --100 --reporter lcov node --test' }, ['c8'], { runner: 'node', base: 'node --test' }],
  ['npm test', { test: 'nyc -r text --check-coverage mocha -R spec test/' }, js, { runner: 'mocha', base: './node_modules/.bin/mocha -R spec test/' }],
  ['npm test', { test: 'istanbul cover node_modules/mocha/bin/_mocha --report lcovonly -- -R spec --check-leaks' }, [], { runner: 'mocha', base: 'node_modules/mocha/bin/_mocha -R spec --check-leaks' }],
  ['npx c8 vitest run', undefined, [], { runner: 'vitest', base: 'npx vitest run' }],
  ['npm test', { test: 'nyc jest' }, [], /jest is not installed/],
  ['npm test', { test: 'nyc make check' }, ['nyc'], /nyc make is not a test runner/],
  ['pytest --lf', undefined, [], /cache of earlier runs/],
  ['pytest > log', undefined, [], /redirects/],
  ['', undefined, [], /runs no program/],
];

describe('resolveRunner', () => {
  it("mocha's own --grep keeps per-test results and says why nothing is selected", () => {
    const resolved = resolveRunner(workspace({ test: 'mocha --grep fast' }, js), 'npm test');
    assert.ok('adapter' in resolved && resolved.adapter.name === 'mocha');
    assert.equal(resolved.noSelection, 'the "test" script selects its own tests (--grep)');
  });

  it("jest's and vitest's own -t keep per-test results and turn selection off", () => {
    for (const test of ['jest -t add', 'vitest run -t add']) {
      const resolved = resolveRunner(workspace({ test }, js), 'npm test');
      assert.ok('adapter' in resolved, JSON.stringify(resolved));
      assert.equal(resolved.noSelection, 'the "test" script selects its own tests (-t)');
      assert.equal(resolved.adapter.command(resolved.base, '/r', ['a.test.js > t'], '/o'), undefined);
    }
  });

  it('a jest config naming its own testResultsProcessor gets the --json report, one without setup files the matchers\' guard; every vitest run goes through the wrapper config (the matchers\' guard), the json reporter on the command line unless the config names reporters', () => {
    const jestDir = jestWorkspace('29.7.0');
    const vitestDir = workspace({ test: 'vitest run' }, js);
    writeFileSync(join(jestDir, 'jest.config.js'), "module.exports = { testResultsProcessor: './p.js' };\n");
    writeFileSync(join(vitestDir, 'vitest.config.ts'), "export default { test: { reporters: ['dot'] } };\n");
    const jest = resolveRunner(jestDir, 'npm test');
    assert.ok('adapter' in jest);
    assert.match(jest.adapter.command(jest.base, '/r/report', undefined, '/o') ?? '', / --json --outputFile=\/r\/report --bail=0 --setupFilesAfterEnv=\/o\/verified-fix-jest-guard\.cjs$/);
    const plain = resolveRunner(jestWorkspace('29.7.0'), 'npm test');
    assert.ok('adapter' in plain);
    assert.match(plain.adapter.command(plain.base, '/r', undefined, '/o') ?? '', /^VERIFIED_FIX_JEST_REPORT=\/r .*jest --testResultsProcessor=\/o\/verified-fix-jest-processor\.cjs --bail=0 --setupFilesAfterEnv=\/o\/verified-fix-jest-guard\.cjs$/);
    assert.ok(Object.keys(plain.adapter.outputFiles ?? {}).includes('verified-fix-jest-guard.cjs'));
    // The project's own setup files after the framework: the command-line option would replace them, so the guard
    // goes in as a snapshot serializer; with serializers of its own too, there is no free option and no guard.
    const ownSetup = jestWorkspace('29.7.0');
    writeFileSync(join(ownSetup, 'jest.config.js'), "module.exports = { setupFilesAfterEnv: ['./setup.js'] };\n");
    const withSetup = resolveRunner(ownSetup, 'npm test');
    assert.ok('adapter' in withSetup);
    const withSetupCommand = withSetup.adapter.command(withSetup.base, '/r', undefined, '/o') ?? '';
    assert.doesNotMatch(withSetupCommand, /setupFilesAfterEnv/);
    assert.match(withSetupCommand, / --snapshotSerializers=\/o\/verified-fix-jest-guard\.cjs$/);
    writeFileSync(join(ownSetup, 'jest.config.js'), "module.exports = { setupFilesAfterEnv: ['./setup.js'], snapshotSerializers: ['s'] };\n");
    const withBoth = resolveRunner(ownSetup, 'npm test');
    assert.ok('adapter' in withBoth);
    assert.doesNotMatch(withBoth.adapter.command(withBoth.base, '/r', undefined, '/o') ?? '', /setupFilesAfterEnv|snapshotSerializers/);
    // Jest 23 refuses the option as unknown; a jest not installed in the workspace is not known to take it.
    for (const dir of [jestWorkspace('23.6.0'), workspace({ test: 'jest' }, js)]) {
      const old = resolveRunner(dir, 'npm test');
      assert.ok('adapter' in old);
      assert.doesNotMatch(old.adapter.command(old.base, '/r', undefined, '/o') ?? '', /setupFilesAfterEnv|snapshotSerializers/);
    }
    const vitest = resolveRunner(vitestDir, 'npm test');
    assert.ok('adapter' in vitest);
    const guard = 'VERIFIED_FIX_VITEST_GUARD=/o/verified-fix-vitest-guard.mjs';
    // The shared stage 1's reporter: named for the wrapper to add to the config's reporters, or on the command line.
    const rounds = '/o/verified-fix-vitest-rounds.mjs';
    assert.equal(vitest.adapter.command(vitest.base, '/r/report', undefined, '/o'), `VERIFIED_FIX_VITEST_REPORT=/r/report ${guard} VERIFIED_FIX_VITEST_ROUNDS=${rounds} ./node_modules/.bin/vitest run --config /o/verified-fix.vitest.config.mjs`);
    // Reporters on the command line: the json one goes there too; the wrapper config still brings the guard.
    const cli = resolveRunner(vitestDir, 'npx vitest run --reporter=dot');
    assert.ok('adapter' in cli);
    assert.equal(cli.adapter.command(cli.base, '/r/report', undefined, '/o'),
      `VERIFIED_FIX_VITEST_REPORT=/r/report ${guard} npx vitest run --reporter=dot --config /o/verified-fix.vitest.config.mjs --reporter=json --reporter=${rounds} --outputFile=/r/report`);
  });

  for (const [command, scripts, bins, expected] of rows) {
    const label = `${JSON.stringify(command)}${scripts ? ` with ${JSON.stringify(scripts)}` : ''}`;
    it(`${label} → ${expected instanceof RegExp ? `refused ${expected}` : `${expected.runner}: ${expected.base}`}`, () => {
      const resolved = resolveRunner(workspace(scripts, bins), command);
      if (expected instanceof RegExp) {
        assert.ok('unsupported' in resolved, `resolved to ${JSON.stringify(resolved)}`);
        assert.match(resolved.unsupported, expected);
      } else {
        assert.ok('adapter' in resolved, 'unsupported' in resolved ? resolved.unsupported : '');
        assert.deepEqual({ runner: resolved.adapter.name, base: resolved.base }, expected);
      }
    });
  }

  it('every base it returns is one its adapter can build on, with and without a selection', () => {
    const ids: Record<RunnerName, string> = {
      node: 'a.test.js > t',
      jest: 'a.test.js > t',
      vitest: 'a.test.js > t',
      mocha: 'a.test.js > t',
      pytest: 'tests/test_a.py::test_t',
      unittest: 'tests/test_a.py > T > test_t',
      go: 'example.com/m > TestT',
      cargo: 'm (src/lib.rs) > tests::t',
      tape: 'test/a.js > t',
      tap: 'test/a.js > t',
      ava: 'test/a.js > t',
    };
    for (const [command, scripts, bins, expected] of rows) {
      if (expected instanceof RegExp) continue;
      const resolved = resolveRunner(workspace(scripts, bins), command);
      assert.ok('adapter' in resolved);
      assert.ok(resolved.adapter.command(resolved.base, '/tmp/r/report'), command);
      assert.ok(resolved.adapter.command(resolved.base, '/tmp/r/report', [ids[resolved.adapter.name]]), command);
    }
  });
});
