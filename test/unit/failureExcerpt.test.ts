// The shared failure excerpt on outputs captured from real runs (test/fixtures/failure-output): it names the failing
// test and its message, strips colours, and never shows passing-test lines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { failureExcerpt, lastErrorLine } from '../../src/core/testResults/failureExcerpt';
import { planFromBaseline } from '../../src/core/verification/stagedVerification';
import { jestAdapter } from '../../src/core/testResults/jest';
import { fixturesDir } from './helpers/paths';

const read = (name: string) => readFileSync(join(fixturesDir, 'failure-output', name), 'utf8');
const PASSING = /✓|✔|\bPASSED\b|passes \d|^\s*[.!]+$|\d+ passing/;

function assertShowsFailure(lines: readonly string[], name: RegExp, message: RegExp): void {
  const text = lines.join('\n');
  assert.match(text, name, text);
  assert.match(text, message, text);
  assert.doesNotMatch(text, /\u001b\[/, 'no colour codes');
  for (const line of lines) assert.doesNotMatch(line, PASSING, `a passing line: ${line}`);
  assert.ok(lines.length <= 8 && lines.every((line) => line.length <= 201));
}

describe('failureExcerpt', () => {
  it('mocha spec reporter: from "N failing", not the 32 ✔ lines before it', () => {
    assertShowsFailure(failureExcerpt({ output: read('mocha11-spec.txt') }), /caps at hi/, /AssertionError \[ERR_ASSERTION\]: 0 == 10/);
  });

  it('mocha dot reporter: no row of dots', () => {
    assertShowsFailure(failureExcerpt({ output: read('mocha11-dot.txt') }), /caps at hi/, /0 == 10/);
  });

  it('old mocha forcing colours: stripped, and no runner frames', () => {
    const lines = failureExcerpt({ output: read('mocha1-spec-colour.txt') });
    assertShowsFailure(lines, /clamp caps at hi/, /0 == 10/);
    assert.ok(!lines.some((line) => /node_modules/.test(line)), lines.join('\n'));
    assert.ok(lines.some((line) => /test\/a\.test\.js:6:41/.test(line)), 'the test\'s own frame stays');
  });

  it('mocha json reporter on stdout: the failures from the JSON, not a fragment of it', () => {
    const lines = failureExcerpt({ output: read('mocha11-json.txt') });
    assertShowsFailure(lines, /^✗ clamp caps at hi$/m, /0 == 10/);
    assert.ok(!lines.some((line) => /[{}]/.test(line)), lines.join('\n'));
  });

  it('pytest -v: from FAILURES, without the PASSED lines', () => {
    assertShowsFailure(failureExcerpt({ output: read('pytest-v.txt') }), /test_caps_at_hi/, /assert 0 == 10/);
  });

  it('jest: the ● block with expected and received', () => {
    const lines = failureExcerpt({ output: read('jest.txt') });
    assertShowsFailure(lines, /● clamp › caps at hi/, /Expected: 10/);
    assert.ok(lines.some((line) => /Received: 0/.test(line)), lines.join('\n'));
  });

  it('per-test results first: the failing tests and their messages, whatever the output', () => {
    const failures = [
      { id: 'test/a.test.js > clamp > caps at hi', message: 'AssertionError [ERR_ASSERTION]: 0 == 10\nexpected: 10\nactual: 0\n    at Context.<anonymous> (test/a.test.js:6:41)' },
      { id: 'test/a.test.js > clamp > b' },
      { id: 'c' },
      { id: 'd' },
    ];
    const lines = failureExcerpt({ output: read('mocha11-dot.txt'), failures });
    assert.deepEqual(lines.slice(0, 3), ['✗ test/a.test.js > clamp > caps at hi', '  AssertionError [ERR_ASSERTION]: 0 == 10', '  expected: 10']);
    assert.ok(lines.includes('✗ test/a.test.js > clamp > b'));
    assert.equal(lines[lines.length - 1], '… and 1 more failing');
  });

  it('else the tail, without passing lines', () => {
    assert.deepEqual(failureExcerpt({ output: 'ok 1 - a\nsomething broke\nlast words\n' }, 2), ['something broke', 'last words']);
    assert.deepEqual(failureExcerpt({ output: 'a\nb\nc' }, 2), ['b', 'c']);
  });
});

describe('the last error a run printed', () => {
  // commander 12's suite under jest 29 with a seeded bug that makes a test's parse() call process.exit: jest ends
  // there, before its results processor runs, so the run leaves no report. Its first "●" block is an earlier failing
  // test; what ended the run is at the end.
  it('names what ended a run that left no report, and the baseline\'s problem says it', () => {
    const output = read('jest29-process-exit.txt');
    assert.equal(lastErrorLine(output), '●  process.exit called with "1"');
    const planned = planFromBaseline(jestAdapter, 'jest', { verdict: { status: 'fail', exitCode: 1, durationMs: 1, output, stdout: '', stderr: output } });
    assert.ok('problem' in planned);
    assert.match(planned.problem, /^the unmodified code's run left no jest test report \(exit 1; the last error it printed: ● {2}process\.exit called with "1"\): .*a test that ended the process/);
  });
  it('reads a traceback\'s last line, and nothing where no line names an error', () => {
    assert.equal(lastErrorLine(['Traceback (most recent call last):', '  File "x.py", line 1, in <module>', "ModuleNotFoundError: No module named 'calc'", ''].join('\n')), "ModuleNotFoundError: No module named 'calc'");
    assert.equal(lastErrorLine('\u001b[31mError: Cannot find module \'./lib\'\u001b[39m\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1)\n'), "Error: Cannot find module './lib'");
    assert.equal(lastErrorLine('  12 passing (4ms)\n'), undefined);
  });
});

