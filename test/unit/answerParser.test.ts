// Taking the replacement out of a model's answer: the usual answer shapes, then fitting it to the selection.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractCode, parseAnswer } from '../../src/core/providers/answerParser';

describe('extractCode', () => {
  const table: [string, string, string][] = [
    ['a fenced block with a language', 'Fixed:\n```javascript\nreturn a + b;\n```', 'return a + b;'],
    ['a fenced block without a language', '```\nreturn a + b;\n```', 'return a + b;'],
    ['a tilde fence', '~~~py\nreturn a + b\n~~~', 'return a + b'],
    ['a four-backtick fence holding ```', '````md\nsee ```x```\n````', 'see ```x```'],
    ['bare code', 'return a + b;', 'return a + b;'],
    ['bare code after an introduction', 'Here is the corrected code:\nreturn a + b;\n', 'return a + b;'],
    ['prose around a block', 'Sure! The bug is the sign.\n```js\nreturn a + b;\n```\nThis adds the numbers instead of subtracting them.', 'return a + b;'],
    ['inline backticks', '`a + b`', 'a + b'],
    ['reasoning before the answer', '<think>The sign is wrong. ```js\nreturn 0;\n```</think>\n```js\nreturn a + b;\n```', 'return a + b;'],
    ['the old code quoted before the new', 'Before:\n```js\nreturn a - b;\n```\nAfter:\n```js\nreturn a + b;\n```', 'return a + b;'],
    ['echoed selection markers', '```js\n<<<SELECTION>>>return a + b;<<<END SELECTION>>>\n```', 'return a + b;'],
    ['an unclosed block at the end of a complete answer', '```js\nreturn a + b;', 'return a + b;'],
    ['CRLF line endings', '```js\r\nif (x) {\r\n  y();\r\n}\r\n```', 'if (x) {\n  y();\n}'],
  ];
  for (const [name, answer, expected] of table) {
    it(`takes ${name}`, () => {
      assert.deepEqual(extractCode(answer, 'return a - b;'), { ok: true, text: expected });
    });
  }

  const invalid: [string, string, RegExp, boolean?][] = [
    ['an empty answer', '  \n', /empty/],
    ['a refusal', "I'm sorry, but I can't help with that.", /no code: "I'm sorry/],
    ['an empty block', '```js\n\n```', /code block in the answer is empty/],
    ['a block cut off at max tokens', '```js\nreturn a +', /cut off/, false],
    ['unfinished reasoning', '<think>Let me think about', /still reasoning/],
  ];
  for (const [name, answer, reason, complete] of invalid) {
    it(`rejects ${name} with a reason`, () => {
      const result = extractCode(answer, 'return a - b;', complete ?? true);
      assert.equal(result.ok, false);
      assert.match(!result.ok ? result.reason : '', reason);
    });
  }
});

/** The file with `[` `]` marking the selection, so the cases read like the editor. */
function parse(marked: string, answer: string): string {
  const start = marked.indexOf('[');
  const end = marked.indexOf(']') - 1;
  const fileText = marked.replace('[', '').replace(']', '');
  const result = parseAnswer(answer, { fileText, start, end });
  assert.ok(result.ok, !result.ok ? result.reason : '');
  return result.text;
}

describe('parseAnswer fits the code to the selection', () => {
  it('indents whole lines selected from column 0, keeping the trailing newline', () => {
    assert.equal(parse('function f(a, b) {\n[  return a - b;\n]}\n', '```js\nreturn a + b;\n```'), '  return a + b;\n');
  });

  it('leaves the first line alone when the selection starts after the indentation', () => {
    const file = 'function f(x) {\n  [if (x) {\n    y();\n  }]\n}\n';
    const expected = 'if (x) {\n    z();\n  }';
    assert.equal(parse(file, '```js\nif (x) {\n  z();\n}\n```'), expected);
    assert.equal(parse(file, '```js\n  if (x) {\n    z();\n  }\n```'), expected, 'already at the file indentation');
    assert.equal(parse(file, '```js\n        if (x) {\n          z();\n        }\n```'), expected, 'deeper than the file');
  });

  it('continues the line when the selection starts mid-line, dropping an echoed start of the line', () => {
    const file = 'function f(a, b) {\n  return [a - b];\n}\n';
    assert.equal(parse(file, '```js\na + b\n```'), 'a + b');
    assert.equal(parse(file, '```js\nreturn a + b;\n```'), 'a + b', 'the whole line echoed');
    assert.equal(parse(file, '`a + b`'), 'a + b');
  });

  it('indents continuation lines of a multi-line answer to a mid-line selection', () => {
    const file = 'function f() {\n  const x = [g(1)];\n}\n';
    assert.equal(parse(file, '```js\ng(\n  1,\n  2,\n)\n```'), 'g(\n    1,\n    2,\n  )');
  });

  it('keeps the nested indentation of Python', () => {
    const file = 'def f(xs):\n[    for x in xs:\n        print(x)\n]    return 0\n';
    assert.equal(parse(file, '```python\nfor x in xs:\n    if x:\n        print(x)\n```'), '    for x in xs:\n        if x:\n            print(x)\n');
  });

  it('converts spaces to the tabs the file uses, whatever the model\'s step', () => {
    const file = 'function f() {\n[\tif (x) {\n\t\ty();\n\t}\n]}\n';
    assert.equal(parse(file, '```js\nif (x) {\n    z();\n}\n```'), '\tif (x) {\n\t\tz();\n\t}\n');
    assert.equal(parse(file, '```js\nif (x) {\n  if (y) {\n    z();\n  }\n}\n```'), '\tif (x) {\n\t\tif (y) {\n\t\t\tz();\n\t\t}\n\t}\n', 'two-space steps');
  });

  it('uses the file line endings', () => {
    assert.equal(parse('function f() {\r\n[  a();\r\n  b();\r\n]}\r\n', '```js\na();\nc();\n```'), '  a();\r\n  c();\r\n');
  });

  it('drops a trailing newline the selection did not have, and blank lines around the code', () => {
    assert.equal(parse('const x = [1];\n', '```js\n\n2\n\n```'), '2');
  });

  it('keeps the indentation after the last newline of the selection', () => {
    assert.equal(parse('{\n[  a();\n  ]b();\n}\n', '```js\nc();\n```'), '  c();\n  ');
  });
});
