// V8's block ranges turned into the lines that ran: the `;` V8 leaves outside the code after an early return does not
// make that code's line look run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { v8LineHits } from '../../src/core/localisation/v8Coverage';

const text = ['function adult(person) {', '  if (!person) return false;', '  const age = Number(person.age);', '  return age >= 18 || age < 130;', '}', ''].join('\n');

/** The report node writes for `adult(null)` (offsets as V8 gave them): the code after the early return ran 0 times. */
function report(): unknown {
  const afterReturn = text.indexOf('\n  const');
  const beforeSemicolon = text.lastIndexOf(';');
  return {
    result: [{
      url: 'file:///w/src/adult.js',
      functions: [
        { ranges: [{ startOffset: 0, endOffset: text.length, count: 1 }] },
        { ranges: [{ startOffset: 0, endOffset: text.length - 1, count: 1 }, { startOffset: afterReturn, endOffset: beforeSemicolon, count: 0 }] },
      ],
    }],
  };
}

describe('V8 line hits', () => {
  it('counts a line as run only when code on it ran, not its closing semicolon', () => {
    const hits = v8LineHits([report()], 'src/adult.js', text);
    assert.deepEqual([...(hits ?? [])].sort(), [1, 2]);
  });
});
