// The TAP adapters' readers on captured reports: node-tap's nested TAP (one result per file) and tape's hook lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTopLevelTap, tapAdapter } from '../../src/core/testResults/tap';
import { tapeAdapter } from '../../src/core/testResults/tape';

const NODE_TAP = [
  'TAP version 13',
  '# Subtest: test/a.test.js',
  '    # Subtest: caps',
  '        not ok 1 - capped',
  '          ---',
  '          found: 0',
  '          wanted: 10',
  '          at:',
  '            line: 4',
  '          source: >',
  "            t.equal(clamp(15, 0, 10), 10, 'capped')",
  '          ...',
  '        1..1',
  '    not ok 1 - caps # time=3ms',
  'not ok 1 - test/a.test.js # time=570.601ms',
  '  ---',
  '  exitCode: 1',
  '  ...',
  '# Subtest: test/b.test.js',
  '    ok 1 - b works # time=68.679ms',
  'ok 2 - test/b.test.js # time=192.868ms',
  'ok 3 - test/c.test.js # SKIP no tests',
  '1..3',
  '',
].join('\n');

/** tap 21's raw TAP (the @tapjs rewrite, 18 on): `compare:` and `at:` as a mapping, a diff in place of found/wanted. */
const TAPJS = [
  'TAP version 14',
  '# Subtest: test/a-clamp.test.js',
  '    # Subtest: caps at hi',
  '        not ok 1 - capped',
  '          ---',
  '          compare: ===',
  '          at:',
  '            fileName: test/a-clamp.test.js',
  '            lineNumber: 4',
  '          stack: |',
  '            Test.<anonymous> (test/a-clamp.test.js:4:33)',
  '          source: >',
  "            t.test('caps at hi', (t) => { t.equal(clamp(15, 0, 10), 10, 'capped');",
  '            --------------------------------^',
  '          diff: |',
  '            --- expected',
  '            +++ actual',
  '            @@ -1,1 +1,1 @@',
  '            -10',
  '            +0',
  '          ...',
  '        1..1',
  '    not ok 2 - caps at hi # time=419.607ms',
  'not ok 1 - test/a-clamp.test.js # time=1022.056ms',
  'ok 2 - test/b-low.test.js # time=787.126ms',
  '',
].join('\n');

describe('node-tap reports', () => {
  it('tap 18+: the diff is the message, without the comparison operator, position or source', () => {
    const results = parseTopLevelTap(TAPJS);
    assert.deepEqual(results.map((r) => [r.id, r.outcome]), [['test/a-clamp.test.js', 'failed'], ['test/b-low.test.js', 'passed']]);
    assert.equal(results[0].message, 'capped\ndiff: |\n--- expected\n+++ actual\n@@ -1,1 +1,1 @@\n-10\n+0');
  });

  it('one result per top-level point, the failing file with its first failing assertion, no source excerpt', () => {
    const results = parseTopLevelTap(NODE_TAP);
    assert.deepEqual(
      results.map((r) => [r.id, r.outcome]),
      [['test/a.test.js', 'failed'], ['test/b.test.js', 'passed'], ['test/c.test.js', 'skipped']],
    );
    assert.equal(results[0].message, 'capped\nfound: 0\nwanted: 10');
  });

  it('a report cut short keeps the files that ended; selection names files in place of the globs', () => {
    assert.deepEqual(parseTopLevelTap(NODE_TAP.slice(0, NODE_TAP.indexOf('# Subtest: test/b'))).map((r) => r.id), ['test/a.test.js']);
    assert.equal(tapAdapter.command('./node_modules/.bin/tap -R dot --no-coverage test/*.js', '/r', ['test/a.test.js']), "./node_modules/.bin/tap -R dot --no-coverage test/a.test.js --output-file=/r");
  });
});

describe('tape reports', () => {
  it('reads the hook lines; odd lines are skipped', () => {
    const report = [
      JSON.stringify({ file: 'test/a.js', names: ['edges', 'caps'], outcome: 'failed', message: 'capped\nexpected: 10\nactual: 0' }),
      '{"file": "test/a.js", "names": ["cut',
      JSON.stringify({ file: 'test/b.js', names: ['ok'], outcome: 'passed' }),
      '',
    ].join('\n');
    assert.deepEqual(tapeAdapter.parse(report, '/ws'), [
      { id: 'test/a.js > edges > caps', outcome: 'failed', message: 'capped\nexpected: 10\nactual: 0' },
      { id: 'test/b.js > ok', outcome: 'passed' },
    ]);
  });

  it('selection replaces the file arguments and keeps options with values', () => {
    const command = tapeAdapter.command('NODE_ENV=test ./node_modules/.bin/tape -r ./setup.js test/*.js', '/r', ['test/a.js > edges > caps', 'test/a.js > x'], '/o') ?? '';
    assert.match(command, /^VERIFIED_FIX_TAPE_REPORT=\/r NODE_OPTIONS='--require "\/o\/verified-fix-tape-hook\.cjs"'"\$\{NODE_OPTIONS:\+ \$NODE_OPTIONS\}" NODE_ENV=test \.\/node_modules\/\.bin\/tape -r \.\/setup\.js test\/a\.js$/);
  });
});
