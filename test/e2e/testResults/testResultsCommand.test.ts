// Each adapter's command: its shape, and that names with quotes, spaces, $ and regex characters survive sh and the regex (the pure parts: test/unit/testResultsCommand.test.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cargoAdapter } from '../../../src/core/testResults/cargo';
import { goAdapter } from '../../../src/core/testResults/go';
import { jestAdapter, jestJsonAdapter } from '../../../src/core/testResults/jest';
import { mochaAdapter } from '../../../src/core/testResults/mocha';
import { nodeAdapter } from '../../../src/core/testResults/node';
import { pytestAdapter } from '../../../src/core/testResults/pytest';
import { shellQuote } from '../../../src/core/testResults/shell';
import type { RunnerAdapter } from '../../../src/core/testResults/types';
import { vitestAdapter } from '../../../src/core/testResults/vitest';
import { remove } from '../../unit/helpers/workspace';

const ODD = `it's "quoted" $HOME (a|b) [x]* \\ ok`;
const HI = 'test/range.test.js > inRange > includes hi';
const ODD_ID = `test/names.test.js > odd names > ${ODD}`;
const REPORT = '/tmp/vf-run/report';

// A stand-in for every runner: prints the arguments sh gave it, so the test sees exactly what the runner would.
const bin = mkdtempSync(join(tmpdir(), 'vf-argv-'));
const fake = join(bin, 'argv');
writeFileSync(fake, `#!${process.execPath}\nprocess.stdout.write(JSON.stringify(process.argv.slice(2)));\n`);
chmodSync(fake, 0o755);
for (const name of ['go', 'cargo']) {
  writeFileSync(join(bin, name), `#!/bin/sh\nexec ${shellQuote(fake)} "$@"\n`);
  chmodSync(join(bin, name), 0o755);
}
// The run's output folder, holding the files an adapter asks for (mocha's hook), as the executor writes them.
const OUT = join(bin, 'out dir');
mkdirSync(OUT);
for (const [name, text] of Object.entries(mochaAdapter.outputFiles ?? {})) writeFileSync(join(OUT, name), text);
after(() => remove(bin));

/** The argv the command's program receives from `/bin/sh -c` (read from the report when the command redirects stdout there). */
function argvOf(command: string, report?: string): string[] {
  const run = spawnSync('/bin/sh', ['-c', command], { encoding: 'utf8', env: { ...process.env, HOME: '/home/nobody' } });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(report ? readFileSync(report, 'utf8') : run.stdout) as string[];
}

/** The value following `flag` in argv, or of `flag=value`. */
function option(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  if (at >= 0) return argv[at + 1];
  return argv.find((arg) => arg.startsWith(`${flag}=`))?.slice(flag.length + 1);
}

describe('shell quoting', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    assert.equal(shellQuote('--outputFile=/tmp/a-b/c.json'), '--outputFile=/tmp/a-b/c.json');
    assert.equal(shellQuote(''), "''");
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
    assert.equal(shellQuote('~/x'), `'~/x'`);
    for (const word of [ODD, '', ' ', "'", "''", '$(touch /tmp/x)', '`id`', 'a\nb', '*', '-n', '\\', '!', '#c']) {
      assert.deepEqual(argvOf(`${shellQuote(fake)} ${shellQuote(word)}`), [word]);
    }
  });

});

describe('commands', () => {
  it('node: reporters right after --test, files after base, own names in the pattern', () => {
    const full = nodeAdapter.command('node --enable-source-maps --test test/', REPORT);
    assert.ok(full);
    assert.match(full, /^node --enable-source-maps --test '--test-reporter=data:text\/javascript,.*' --test-reporter-destination=\/tmp\/vf-run\/report --test-reporter=spec --test-reporter-destination=stdout test\/$/s);
    const argv = argvOf(nodeAdapter.command(`${fake} --test test/`, REPORT, [HI, ODD_ID]) ?? '');
    assert.equal(argv[0], '--test');
    assert.deepEqual(argv.slice(-3), ['test/', 'test/range.test.js', 'test/names.test.js']);
    const pattern = new RegExp(option(argv, '--test-name-pattern') ?? '');
    for (const name of ['includes hi', ODD, 'inRange > includes hi']) assert.ok(pattern.test(name), name);
    for (const name of ['includes hi!', 'includes', 'a', 'b', `${ODD} `, 'inRange']) assert.ok(!pattern.test(name), name);
  });

  it('node: a file id runs its whole file (no pattern)', () => {
    const argv = argvOf(nodeAdapter.command(`${fake} --test`, REPORT, [HI, 'test/syntax.test.js']) ?? '');
    assert.equal(option(argv, '--test-name-pattern'), undefined);
    assert.deepEqual(argv.slice(-2), ['test/range.test.js', 'test/syntax.test.js']);
  });

  for (const [adapter, base, fileFlag, patternFlag] of [
    [jestAdapter, 'npx jest', '--runTestsByPath', '-t'],
    [vitestAdapter, 'npx vitest run', undefined, '-t'],
    [mochaAdapter, 'npx mocha', undefined, '--grep'],
  ] as Array<[RunnerAdapter, string, string | undefined, string]>) {
    it(`${adapter.name}: report options, the ids' files and one full-name regex`, () => {
      assert.ok(adapter.command(base, REPORT)?.includes(`${base}`));
      const argv = argvOf(adapter.command(fake, REPORT, [HI, ODD_ID, HI], OUT) ?? '');
      const files = ['test/range.test.js', 'test/names.test.js'];
      const at = argv.indexOf(files[0]);
      assert.deepEqual(argv.slice(at, at + 2), files);
      if (fileFlag) assert.equal(argv[at - 1], fileFlag);
      const pattern = new RegExp(option(argv, patternFlag) ?? '');
      for (const name of ['inRange includes hi', `odd names ${ODD}`]) assert.ok(pattern.test(name), name);
      for (const name of ['inRange includes hi!', 'includes hi', `odd names ${ODD}!`, `${ODD}`, 'inRange includes']) assert.ok(!pattern.test(name), name);
    });
  }

  it('jest, vitest: report paths (jest through its results processor)', () => {
    assert.equal(option(argvOf(jestAdapter.command(fake, REPORT, undefined, OUT) ?? ''), '--testResultsProcessor'), `${OUT}/verified-fix-jest-processor.cjs`);
    assert.equal(option(argvOf(jestJsonAdapter.command(fake, REPORT) ?? ''), '--outputFile'), REPORT);
    assert.equal(option(argvOf(vitestAdapter.command(fake, REPORT) ?? ''), '--outputFile'), REPORT);
  });

  it('mocha: the report through a hook in NODE_OPTIONS, ahead of the user\'s own; the arguments untouched', () => {
    const env = `${fake}-env`;
    writeFileSync(env, `#!${process.execPath}\nprocess.stdout.write(JSON.stringify([process.env.VERIFIED_FIX_MOCHA_REPORT, process.env.NODE_OPTIONS, ...process.argv.slice(2)]));\n`);
    chmodSync(env, 0o755);
    const out = OUT;
    assert.deepEqual(argvOf(mochaAdapter.command(`${env} --reporter dot`, REPORT, undefined, out) ?? ''), [REPORT, `--require "${out}/verified-fix-mocha-hook.cjs"`, '--reporter', 'dot']);
    const own = mochaAdapter.command(`NODE_OPTIONS=--max-old-space-size=99 ${env}`, REPORT, undefined, out) ?? '';
    assert.equal(argvOf(own)[1], `--require "${out}/verified-fix-mocha-hook.cjs" --max-old-space-size=99`);
    const inherited = spawnSync('/bin/sh', ['-c', mochaAdapter.command(env, REPORT, undefined, out) ?? ''], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '--no-warnings' } });
    assert.equal((JSON.parse(inherited.stdout) as string[])[1], `--require "${out}/verified-fix-mocha-hook.cjs" --no-warnings`);
    assert.equal(mochaAdapter.command('npx mocha', REPORT, undefined, '/tmp/a"b'), undefined, 'NODE_OPTIONS cannot quote a double quote');
    assert.equal(mochaAdapter.command('npx mocha --grep slow', REPORT, [HI], out), undefined, 'the user\'s own --grep leaves no selection');
    assert.ok(mochaAdapter.command('npx mocha --grep slow', REPORT, undefined, out));
  });

  it('mocha: a hook id selects every test of its suite; a root hook the whole file', () => {
    const argv = argvOf(mochaAdapter.command(fake, REPORT, ['test/h.test.js > with hook > "before all" hook'], OUT) ?? '');
    const pattern = new RegExp(option(argv, '--grep') ?? '');
    assert.ok(pattern.test('with hook a') && pattern.test('with hook inner b'));
    assert.ok(!pattern.test('with hooks a') && !pattern.test('other'));
    assert.equal(option(argvOf(mochaAdapter.command(fake, REPORT, ['test/h.test.js > "before each" hook: setup'], OUT) ?? ''), '--grep'), undefined);
  });

  it('pytest: node ids as arguments, exactly as given', () => {
    const id = `tests/test_names.py::test_odd[${ODD}]`;
    const argv = argvOf(pytestAdapter.command(`${fake} -q`, REPORT, [id, 'tests/test_a.py::T::t'], OUT) ?? '');
    assert.deepEqual(argv, ['-q', '-p', 'no:cacheprovider', '-p', 'verified_fix_pytest_report', id, 'tests/test_a.py::T::t']);
  });

  it('go: -json (and -run) right after `go test`, packages instead of ./..., stdout to the report', () => {
    const report = join(bin, 'go-report');
    assert.deepEqual(argvOf(goAdapter.command(`${bin}/go test -count=1 ./...`, report) ?? '', report), ['test', '-json', '-count=1', './...']);
    const argv = argvOf(goAdapter.command(`${bin}/go test -count=1 ./...`, report, ['example.com/m/a > TestA', 'example.com/m/b > TestB', 'example.com/m/a > TestC']) ?? '', report);
    assert.deepEqual(argv, ['test', '-json', '-run', '^(?:TestA|TestB|TestC)$', '-count=1', 'example.com/m/a', 'example.com/m/b']);
    const whole = argvOf(goAdapter.command(`${bin}/go test ./...`, report, ['example.com/m/a > TestA', 'example.com/m/b']) ?? '', report);
    assert.deepEqual(whole, ['test', '-json', 'example.com/m/a', 'example.com/m/b']);
  });

  it('cargo: --no-fail-fast, --exact names after --, both streams to the report', () => {
    const report = join(bin, 'cargo-report');
    assert.deepEqual(argvOf(cargoAdapter.command(`${bin}/cargo test`, report) ?? '', report), ['test', '--no-fail-fast']);
    const only = ['demo (src/lib.rs) > tests::a', 'api (tests/api.rs) > b'];
    assert.deepEqual(argvOf(cargoAdapter.command(`${bin}/cargo test --release`, report, only) ?? '', report), ['test', '--no-fail-fast', '--release', '--', '--exact', 'tests::a', 'b']);
    assert.deepEqual(argvOf(cargoAdapter.command(`${bin}/cargo test -- --test-threads=1`, report, only) ?? '', report), ['test', '--no-fail-fast', '--', '--test-threads=1', '--exact', 'tests::a', 'b']);
    // Doc-test names do not match --exact: with one in the selection the names become substring filters.
    const doc = argvOf(cargoAdapter.command(`${bin}/cargo test`, report, ['demo (doc) > src/lib.rs - f (line 1)', 'demo (src/lib.rs) > tests::a']) ?? '', report);
    assert.deepEqual(doc, ['test', '--no-fail-fast', '--', 'src/lib.rs - f (line 1)', 'tests::a']);
  });

});
