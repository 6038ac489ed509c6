// The behaviour check's pure parts: the neighbour generator, locating the function, the recording prologue and its
// reader (run in this process), and the comparison (deep equality, groups, shortest distinguishing inputs).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { describe, it } from 'node:test';
import { generateInputs, inputKey, randomLike, valueNeighbours } from '../../src/core/behaviour/neighbours';
import { locateFunction } from '../../src/core/behaviour/locate';
import { RECORD_VARIABLE, recordingText, replayText } from '../../src/core/behaviour/instrument';
import { readRecording } from '../../src/core/behaviour/recording';
import { fixBehaviours, groupFixes } from '../../src/core/behaviour/compare';
import type { Replayed } from '../../src/core/behaviour/compare';
import { readResults, sameOutcome } from '../../src/core/behaviour/outcomes';
import type { Outcome } from '../../src/core/behaviour/outcomes';
import { seededRandom } from '../../src/core/statistics/random';

describe('neighbour inputs', () => {
  it('nudges numbers, strings, arrays and booleans and keeps their type', () => {
    assert.deepEqual(valueNeighbours(5), [4, 6, 0, 1, -1, -5, 10, 2]);
    assert.deepEqual(valueNeighbours(true), [false]);
    const strings = valueNeighbours('abc');
    for (const s of ['', 'a', 'bc', 'ab', 'abcc']) assert.ok(strings.includes(s), s);
    const arrays = valueNeighbours([3, 1, 2]) as number[][];
    for (const a of [[], [3], [2, 1, 3], [3, 3, 1, 2], [3, 1], [1, 2, 3]]) assert.ok(arrays.some((x) => JSON.stringify(x) === JSON.stringify(a)), JSON.stringify(a));
    assert.ok(arrays.some((x) => JSON.stringify(x) === '[2,1,2]'), 'one element nudged');
  });

  it('swaps arguments of the same type, leaves out the observed inputs and repeats, and keeps to the budget', () => {
    const observed = [{ args: [10, 5] }, { args: [11, 5] }];
    const generated = generateInputs(observed, 200);
    assert.ok(generated.length <= 200 && generated.length > 20);
    assert.ok(generated.some((g) => g.args[0] === 5 && g.args[1] === 10), 'swapped');
    assert.ok(generated.some((g) => g.args[0] === 10 && g.args[1] === 4), '±1');
    const keys = generated.map(inputKey);
    assert.equal(new Set(keys).size, keys.length, 'no repeats');
    for (const o of observed) assert.ok(!keys.includes(inputKey(o)), 'observed ones left out');
    assert.deepEqual(generateInputs(observed, 200), generated, 'seeded: the same inputs every time');
    assert.equal(generateInputs(observed, 3).length, 3);
    // The first ones are one step from each observed input in turn (10 - 1, then 11 + 1: 11 - 1 and 10 + 1 were observed).
    assert.deepEqual(generateInputs(observed, 2).map((g) => g.args), [[9, 5], [12, 5]]);
  });

  it('nudges a method\'s this field by field', () => {
    const generated = generateInputs([{ args: [], self: { values: [3, 1, 2], scale: 2 } }], 100);
    assert.ok(generated.some((g) => JSON.stringify(g.self) === '{"values":[],"scale":2}'));
    assert.ok(generated.some((g) => JSON.stringify(g.self) === '{"values":[3,1,2],"scale":3}'));
  });

  it('a number computed as a double and the same small integer are one input', () => {
    const computed = 17 + Math.floor(0.5 + 0.5);
    assert.equal(inputKey({ args: [computed], self: undefined }), inputKey({ args: [18], self: undefined }));
    assert.notEqual(inputKey({ args: ['18'] }), inputKey({ args: [18] }));
  });

  it('makes random values shaped like the observed ones', () => {
    const random = seededRandom(1);
    for (let i = 0; i < 50; i++) {
      const n = randomLike(7, random) as number;
      assert.ok(Number.isInteger(n) && Math.abs(n) <= 14);
      const s = randomLike('ab', random) as string;
      assert.match(s, /^[ab]*$/);
      const a = randomLike([1.5, 2.5], random) as number[];
      assert.ok(Array.isArray(a) && a.every((x) => typeof x === 'number'));
    }
  });
});

describe('locating the selected function', () => {
  const text = [
    'export function f(a, b) { return a + b; }',
    'const g = (x, ...rest) => x + rest.length;',
    'class Stats { median(xs) { return xs[0]; } static of(v) { return v; } }',
    'exports.h = function (u) { return u; };',
    'function outer() { function inner(q) { return q; } return inner; }',
    'const d = ({ a }) => a;',
  ].join('\n');
  const at = (needle: string) => text.indexOf(needle);
  const locate = (needle: string, languageId = 'javascript') => locateFunction(languageId, text, at(needle), at(needle) + needle.length);

  it('finds declarations, arrows, methods and exports, and how to reach each from the module\'s end', async () => {
    const cases: Array<[string, string, string]> = [
      ['return a + b', 'f', 'f'],
      ['x + rest.length', 'g', 'g'],
      ['return xs[0]', 'Stats#median', 'Stats.prototype.median'],
      ['return v', 'Stats.of', 'Stats.of'],
      ['return u', 'h', 'exports.h'],
    ];
    for (const [needle, display, access] of cases) {
      const found = await locate(needle);
      assert.ok('located' in found, `${needle}: ${JSON.stringify(found)}`);
      assert.equal(found.located.display, display);
      assert.equal(found.located.access, access);
    }
    const arrow = await locate('x + rest.length');
    assert.ok('located' in arrow);
    assert.deepEqual(arrow.located.arrowParameters, ['x', '...rest']);
    assert.equal(arrow.located.expressionBody, true);
  });

  it('says why a function cannot be replayed', async () => {
    assert.deepEqual(await locate('return q'), { problem: 'the function cannot be called from outside: it is declared inside another function' });
    assert.match(((await locate('}) => a')) as { problem: string }).problem, /destructured parameters/);
    assert.match(((await locateFunction('python', 'def f(x):\n  return x\n', 10, 18)) as { problem: string }).problem, /JavaScript and TypeScript/);
    assert.deepEqual(await locateFunction('javascript', 'const x = 1;\n', 0, 5), { problem: 'the selection is not inside a function' });
  });
});

describe('the recording prologue and its reader', () => {
  it('records each call\'s arguments (and a method\'s this) in the file the variable names, and why a call cannot be copied', async () => {
    const text = 'function add(a, b) {\n  return a + b;\n}\nconst half = (x) => x / 2;\nclass Box { size(k) { return this.n * k; } }\n';
    const dir = mkdtempSync(join(tmpdir(), 'vf-rec-'));
    const file = join(dir, 'calls.bin');
    writeFileSync(file, '');
    const previous = process.env[RECORD_VARIABLE];
    process.env[RECORD_VARIABLE] = file;
    try {
      let instrumented = text;
      for (const needle of ['return a + b', 'x / 2', 'return this.n']) {
        const found = await locateFunction('javascript', instrumented, instrumented.indexOf(needle), instrumented.indexOf(needle) + needle.length);
        assert.ok('located' in found);
        instrumented = recordingText(instrumented, found.located);
      }
      assert.equal(instrumented.split('\n').length, text.split('\n').length, 'no line moves');
      const run = new Function(`${instrumented}\nreturn { add, half, Box };`) as () => { add: (a: unknown, b: unknown) => unknown; half: (x: number) => number; Box: new () => { n: number; size(k: number): number } };
      delete (globalThis as Record<symbol, unknown>)[Symbol.for('verifiedFix.record')];
      const { add, half, Box } = run();
      assert.equal(add(1, 2), 3, 'the function still works');
      add(1, 2);
      add([1], () => 0);
      assert.equal(half(8), 4);
      const box = new Box();
      box.n = 3;
      assert.equal(box.size(2), 6);
      const recording = readRecording(readFileSync(file), 100);
      assert.deepEqual(recording.inputs, [{ args: [1, 2], self: undefined }, { args: [8], self: undefined }, { args: [2], self: { n: 3 } }]);
      assert.equal(recording.uncloneable, 1);
      assert.match(recording.reason ?? '', /could not be cloned/);
    } finally {
      if (previous === undefined) delete process.env[RECORD_VARIABLE];
      else process.env[RECORD_VARIABLE] = previous;
      delete (globalThis as Record<symbol, unknown>)[Symbol.for('verifiedFix.record')];
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('skips a torn last frame and unreadable frames', () => {
    const frame = (value: unknown) => {
      const body = serialize(value);
      const head = Buffer.alloc(4);
      head.writeUInt32LE(body.length);
      return Buffer.concat([head, body]);
    };
    const good = frame({ args: [1], self: undefined });
    const junk = Buffer.concat([Buffer.from([3, 0, 0, 0]), Buffer.from('xyz')]);
    const bytes = Buffer.concat([good, junk, frame({ args: [1], self: undefined }), frame({ args: [2], self: undefined }).subarray(0, 6)]);
    assert.deepEqual(readRecording(bytes, 10).inputs, [{ args: [1], self: undefined }]);
  });

  it('the replay hook hands the function over under the harness\'s key, typed for TypeScript', async () => {
    const found = await locateFunction('typescript', 'export function f(a: number): number {\n  return a;\n}\n', 40, 48);
    assert.ok('located' in found);
    assert.match(replayText('x', found.located), /\(globalThis as any\)\[Symbol\.for\('verifiedFix\.replay'\)\] = \{ fn: f \};\n$/);
    assert.match(recordingText('export function f(a: number): number {\n  return a;\n}\n', found.located), /const __vfG: any=globalThis/);
  });
});

describe('comparing outcomes', () => {
  const value = (v: unknown, args: unknown[] = []): Outcome => ({ kind: 'returned', value: v, args });
  const inputs = [{ args: [1] }, { args: [2] }, { args: [30] }, { args: [4] }];
  const replayed = (fixes: Replayed['fixes']): Replayed => ({ name: 'f', inputs, fromFailingTests: [true, false, false, false], original: [value(0, [1]), value(2, [2]), value(30, [30]), value(4, [4])], fixes });

  it('deep equality of values and of the arguments after the call; exceptions by name and message; 0 and -0 alike', () => {
    assert.ok(sameOutcome(value({ a: [1, 2] }), value({ a: [1, 2] })));
    assert.ok(!sameOutcome(value({ a: [1, 2] }), value({ a: [2, 1] })));
    assert.ok(sameOutcome(value(0), value(-0)));
    assert.ok(sameOutcome(value(NaN), value(NaN)));
    assert.ok(!sameOutcome(value(undefined, [[1, 2]]), value(undefined, [[2, 1]])), 'an in-place change is a change');
    assert.ok(sameOutcome({ kind: 'threw', name: 'RangeError', message: 'x' }, { kind: 'threw', name: 'RangeError', message: 'x' }));
    assert.ok(!sameOutcome({ kind: 'threw', name: 'RangeError', message: 'x' }, value(undefined)));
  });

  it('groups fixes by behaviour, with the shortest distinguishing inputs, and what each changes beyond the failing tests', () => {
    const r = replayed([
      { index: 3, outcomes: [value(1, [1]), value(2, [2]), value(31, [30]), value(5, [4])] },
      { index: 0, outcomes: [value(1, [1]), value(2, [2]), value(31, [30]), value(5, [4])] },
      { index: 5, outcomes: [value(1, [1]), value(2, [2]), value(30, [30]), { kind: 'timeout' }] },
      { index: 7, problem: 'its module did not load: SyntaxError' },
    ]);
    const { groups, pairs } = groupFixes(r);
    assert.deepEqual(groups, [[3, 0], [5]]);
    assert.equal(pairs.length, 1);
    assert.deepEqual(pairs[0], { first: 3, second: 5, differing: 1, examples: [{ call: 'f(30)', first: '31', second: '30' }] });
    const [three, , five, seven] = fixBehaviours(r);
    assert.deepEqual(three, { index: 3, tried: 4, changed: 3, changedBeyondFailingTests: 2, examples: [{ call: 'f(4)', first: '4', second: '5' }, { call: 'f(30)', first: '30', second: '31' }] });
    assert.equal(five.tried, 3, 'a timeout is no outcome');
    assert.equal(five.changedBeyondFailingTests, 0);
    assert.equal(seven.problem, 'its module did not load: SyntaxError');
  });

  it('checks the shape of a replay\'s results rather than trusting them', () => {
    assert.deepEqual(readResults(undefined, 1), { problem: 'its replay wrote no results' });
    assert.deepEqual(readResults(Buffer.from('forged'), 1), { problem: 'its replay results could not be read' });
    assert.deepEqual(readResults(serialize({ outcomes: [] }), 2), { problem: 'its replay results hold 0 outcomes for 2 inputs' });
    assert.deepEqual(readResults(serialize({ outcomes: [serialize({ kind: 'agrees' })] }), 1), { problem: 'its replay results hold an outcome that is not one' });
    assert.deepEqual(readResults(serialize({ outcomes: [serialize({ kind: 'returned', value: 2 })] }), 1), { outcomes: [{ kind: 'returned', value: 2 }] });
  });
});
