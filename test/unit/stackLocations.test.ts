// The readers of test output the Quick Fix relies on: file-and-line references and escape stripping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stripAnsi } from '../../src/core/base/ansi';
import { outputLocations } from '../../src/core/testResults/stackLocations';

describe('file-and-line references in test output', () => {
  it('reads stack frames, tracebacks and compiler errors, without runner internals or repeats', () => {
    const output = [
      '\u001b[31m✖ initials\u001b[39m',
      "TypeError: Cannot read properties of undefined (reading '0')",
      '    at initials (/work/ws/words.js:7:58)',
      '    at TestContext.<anonymous> (/work/ws/words.test.js:7:16)',
      '    at Test.runInAsyncScope (node:async_hooks:206:9)',
      '    at async Promise.all (index 0)',
      '    at file:///work/ws/src/my%20file.mjs:3:1',
      '  File "/work/ws/calc.py", line 12, in add',
      'src/a.ts(3,9): error TS2322',
      '    at initials (/work/ws/words.js:7:58)',
    ].join('\n');
    // In the order of the text, whatever form each reference takes.
    assert.deepEqual(outputLocations(stripAnsi(output)), [
      { path: '/work/ws/words.js', line: 7 },
      { path: '/work/ws/words.test.js', line: 7 },
      { path: '/work/ws/src/my file.mjs', line: 3 },
      { path: '/work/ws/calc.py', line: 12 },
      { path: 'src/a.ts', line: 3 },
    ]);
  });

  it('keeps a file URL with a malformed escape as written', () => {
    assert.deepEqual(outputLocations('    at file:///work/ws/100%zz.js:3:1'), [{ path: '/work/ws/100%zz.js', line: 3 }]);
  });

  it('strips colours, hyperlinks and shell-integration marks', () => {
    assert.equal(stripAnsi('\u001b]633;C\u0007\u001b[1;31mfail\u001b[0m \u001b]8;;file:///x\u001b\\x\u001b]8;;\u001b\\'), 'fail x');
    // Colon-separated colours and private-mode parameters are CSI sequences too.
    assert.equal(stripAnsi('\u001b[38:5:196mred\u001b[>4;2m\u001b[0m'), 'red');
  });
});
