// The prompt: what the model sees of the file, the selection and the failing tests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ATTEMPT_MAX_CHARS, BASELINE_MAX_CHARS, REPAIR_MAX_CHARS, WINDOW_LINES, baselineText, buildPrompt } from '../../src/core/providers/prompt';

const fileText = 'export function add(a, b) {\n  return a - b;\n}\n';
const start = fileText.indexOf('return');
const end = fileText.indexOf(';') + 1;
const base = { languageId: 'javascript', relativePath: 'src/add.js', fileText, start, end };
const user = (messages: { role: string; content: string }[]) => messages.find((m) => m.role === 'user')!.content;

describe('buildPrompt', () => {
  it('gives the language, the path, the whole small file with the selection marked, and the failing output', () => {
    const messages = buildPrompt({ ...base, baseline: { status: 'fail', output: 'not ok 1 - add\n  expected: 5\n  actual: -1\n' } });
    assert.deepEqual(
      messages.map((m) => m.role),
      ['system', 'user'],
    );
    const text = user(messages);
    assert.match(text, /Language: javascript\. File: `src\/add\.js`/);
    assert.ok(text.includes('```javascript\nexport function add(a, b) {\n  <<<SELECTION>>>return a - b;<<<END SELECTION>>>\n}\n'));
    assert.match(text, /The selection on its own:\n```javascript\n {2}return a - b;\n```/);
    assert.match(text, /The tests currently fail[\s\S]*expected: 5\n {2}actual: -1/);
    assert.match(messages[0].content + text, /exactly one fenced code block/);
  });

  it('says the selection is buggy when there is no failing output', () => {
    for (const baseline of [undefined, { status: 'pass' as const, output: 'ok 1' }]) {
      const text = user(buildPrompt({ ...base, baseline }));
      assert.doesNotMatch(text, /tests currently fail/);
      assert.match(text, /contains a bug/);
    }
  });

  it('tells the model when the selection starts mid-line', () => {
    const mid = fileText.indexOf('a - b');
    assert.match(user(buildPrompt({ ...base, start: mid, end: mid + 5 })), /middle of a line/);
    assert.doesNotMatch(user(buildPrompt(base)), /middle of a line/);
  });

  it('shows a window of lines around the selection of a big file', () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `const v${i} = ${i};`);
    const big = lines.join('\n') + '\n';
    const s = big.indexOf('const v1000 ');
    const e = big.indexOf('\n', s);
    const text = user(buildPrompt({ ...base, fileText: big, start: s, end: e }));
    assert.ok(text.includes('<<<SELECTION>>>const v1000 = 1000;<<<END SELECTION>>>'));
    assert.ok(text.includes(`const v${1000 - WINDOW_LINES} =`) && !text.includes(`const v${1000 - WINDOW_LINES - 1} =`));
    assert.ok(text.includes(`const v${1000 + WINDOW_LINES} =`) && !text.includes(`const v${1000 + WINDOW_LINES + 1} =`));
    assert.match(text, /lines 941-1061 of 2001/);
    assert.match(text, /940 lines above not shown/);
    assert.ok(text.length < 12_000);
  });

  it('uses a fence longer than any backtick run in the file', () => {
    const md = 'Example:\n```js\nx\n```\n';
    const text = user(buildPrompt({ ...base, languageId: 'markdown', fileText: md, start: 0, end: 8 }));
    assert.ok(text.includes('````markdown\n'));
  });
});

describe('baselineText', () => {
  it('keeps the end of a long output, without colours', () => {
    const output = '\u001b[31mnoise\u001b[0m\n'.repeat(2_000) + 'FAIL: expected 5, got -1\n';
    const text = baselineText({ status: 'fail', output })!;
    assert.ok(text.length <= BASELINE_MAX_CHARS + 10, String(text.length));
    assert.ok(text.startsWith('…\n'));
    assert.match(text, /FAIL: expected 5, got -1$/);
    assert.doesNotMatch(text, /\u001b/);
  });

  it('names a timeout or an error', () => {
    assert.match(baselineText({ status: 'timeout', output: '' })!, /ended with: timeout/);
    assert.equal(baselineText({ status: 'pass', output: 'ok' }), undefined);
  });
});

describe('buildPrompt in a repair round', () => {
  const failed = [
    { replacement: '  return a * b;', failure: ['still failing: add.test.js > adds', 'AssertionError: 6 !== 5'] },
    { replacement: '  return b - a;', failure: [] },
  ];

  it('shows each failed attempt with its failure lines and asks for a different fix', () => {
    const text = user(buildPrompt({ ...base, baseline: { status: 'fail', output: 'not ok 1 - add' }, repair: { round: 2, failed } }));
    assert.match(text, /Earlier attempts to replace the selection did not pass the tests/);
    assert.ok(text.includes('Attempt 1:\n```javascript\n  return a * b;\n```\nIt failed:\n```text\nstill failing: add.test.js > adds\nAssertionError: 6 !== 5\n```'), text);
    assert.ok(text.includes('Attempt 2:\n```javascript\n  return b - a;\n```\nIt failed.'), text);
    assert.match(text, /different from every earlier attempt/);
    // The attempts come after the failing output and before the instructions.
    assert.ok(text.indexOf('not ok 1') < text.indexOf('Attempt 1') && text.indexOf('Attempt 2') < text.indexOf('Instructions:'));
  });

  it('has no repair section without failed attempts', () => {
    for (const repair of [undefined, { round: 2, failed: [] }]) {
      const text = user(buildPrompt({ ...base, repair }));
      assert.doesNotMatch(text, /Earlier attempts|different from every earlier/);
    }
  });

  it('stays within its budget: long attempts are cut, the ones that do not fit are counted', () => {
    const long = Array.from({ length: 30 }, (_, i) => ({ replacement: `  return ${String(i).repeat(ATTEMPT_MAX_CHARS)};`, failure: ['still failing: adds'] }));
    const text = user(buildPrompt({ ...base, repair: { round: 3, failed: long } }));
    const section = text.slice(text.indexOf('Earlier attempts'), text.indexOf('Instructions:'));
    assert.ok(section.length < REPAIR_MAX_CHARS + 500, `${section.length}`);
    assert.match(section, /… \(cut\)/);
    const shown = (section.match(/^Attempt \d+:/gm) ?? []).length;
    assert.ok(shown >= 1 && shown < 30);
    assert.match(section, new RegExp(`\\(${30 - shown} more failed attempts not shown\\.\\)`));
  });

  it('fences failed attempts holding backticks with a longer fence', () => {
    const text = user(buildPrompt({ ...base, repair: { round: 2, failed: [{ replacement: '  return `${a}````;', failure: ['x'] }] } }));
    assert.ok(text.includes('`````javascript\n  return `${a}````;\n`````'), text);
  });
});
