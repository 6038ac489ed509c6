// Shell words, quoting and regex escapes the adapters' commands are built from, and when an adapter has no command (the commands run through sh: test/e2e/testResults/testResultsCommand.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cargoAdapter } from '../../src/core/testResults/cargo';
import { goAdapter } from '../../src/core/testResults/go';
import { fullNamePattern, ownNameCandidates } from '../../src/core/testResults/ids';
import { jestAdapter } from '../../src/core/testResults/jest';
import { mochaAdapter } from '../../src/core/testResults/mocha';
import { nodeAdapter } from '../../src/core/testResults/node';
import { pytestAdapter } from '../../src/core/testResults/pytest';
import { regexEscape, shellWords } from '../../src/core/testResults/shell';
import { unittestAdapter } from '../../src/core/testResults/unittest';
import { vitestAdapter } from '../../src/core/testResults/vitest';

const ODD = `it's "quoted" $HOME (a|b) [x]* \\ ok`;
const REPORT = '/tmp/vf-run/report';

describe('shell quoting', () => {
  it('splits simple commands and refuses what it cannot copy', () => {
    const words = shellWords(`A=1 jest  "a b" 'c d' e\\ f --x="y z" test/*.js ~/t`);
    assert.ok(Array.isArray(words));
    assert.deepEqual(words.map((w) => w.value), ['A=1', 'jest', 'a b', 'c d', 'e f', '--x=y z', 'test/*.js', '~/t']);
    assert.deepEqual(words.map((w) => w.raw), ['A=1', 'jest', '"a b"', "'c d'", 'e\\ f', '--x="y z"', 'test/*.js', '~/t']);
    assert.deepEqual(shellWords(`a '$HOME;&&|'`), [{ value: 'a', raw: 'a' }, { value: '$HOME;&&|', raw: `'$HOME;&&|'` }]);
    for (const text of ['a && b', 'a; b', 'a | b', 'a > f', 'a $B', 'a "$B"', 'a `b`', 'a $(b)', '(a)', 'a # c', "a 'b", 'a\nb', 'a &']) {
      assert.ok('refused' in shellWords(text), text);
    }
  });

  it('escapes every regex syntax character, and the escapes compile with and without the u flag', () => {
    const nasty = `^$.*+?()[]{}|\\/-${ODD}`;
    assert.ok(new RegExp(`^${regexEscape(nasty)}$`).test(nasty));
    assert.ok(new RegExp(`^${regexEscape(nasty)}$`, 'u').test(nasty));
  });

  it('full-name and own-name patterns allow for ` > ` inside names', () => {
    const pattern = new RegExp(`^${fullNamePattern('a > b > c')}$`);
    for (const name of ['a b c', 'a b > c', 'a > b c']) assert.ok(pattern.test(name), name);
    assert.ok(!pattern.test('a b  c'));
    assert.deepEqual(ownNameCandidates('a > b > c'), ['c', 'b > c', 'a > b > c']);
  });
});

describe('commands', () => {
  it('undefined for an empty selection, or a base that is not the runner', () => {
    for (const adapter of [nodeAdapter, jestAdapter, vitestAdapter, mochaAdapter, pytestAdapter, unittestAdapter, goAdapter, cargoAdapter]) {
      assert.equal(adapter.command('x', REPORT, []), undefined, adapter.name);
    }
    assert.equal(unittestAdapter.command('python3 -m pytest', REPORT), undefined);
    assert.equal(nodeAdapter.command('node test.js --test-name-pattern=x', REPORT), undefined);
    assert.equal(goAdapter.command('make test', REPORT), undefined);
    assert.equal(goAdapter.command('cargo test', REPORT), undefined);
    assert.equal(cargoAdapter.command('go test', REPORT), undefined);
    assert.equal(cargoAdapter.command('cargo test', REPORT, ['demo (src/lib.rs)']), undefined);
  });

  it('unittest: the engine\'s script in place of `-m unittest`, the interpreter, options and arguments kept; a selection as a JSON list', () => {
    assert.equal(unittestAdapter.command("python3 -X dev -m unittest discover -s 'my tests' -v", REPORT, undefined, '/o'),
      `VERIFIED_FIX_UNITTEST_REPORT=${REPORT} python3 -X dev /o/verified_fix_unittest.py discover -s 'my tests' -v`);
    assert.equal(unittestAdapter.command('python3 -m unittest', REPORT, ["t.py > A > it's", "t.py > A > it's"], '/o'),
      `VERIFIED_FIX_UNITTEST_REPORT=${REPORT} VERIFIED_FIX_UNITTEST_ONLY='["t.py > A > it'\\''s"]' python3 /o/verified_fix_unittest.py`);
  });
});
