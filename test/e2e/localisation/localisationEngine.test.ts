// Fault localisation through the engine: a bug the stack trace does not name, a whole-function selection, and the
// right mutant tried earlier with the failing tests' coverage than without it (node --test, pytest and jest, real runs).
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runFix } from '../../../src/core/engine/runFix';
import type { FixRequest, FixResult } from '../../../src/core/contract/fixRequest';
import type { Logger } from '../../../src/core/base/logger';
import { createMutationProvider } from '../../../src/core/providers/mutationProvider';
import { lineRangeToOffsets } from '../../../src/core/base/textRange';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

/** Enough for the fix with localisation; without it the fix comes later than this (or is not reached). */
const SAMPLES = 4;
const tempRoot = makeTempRoot();
const workspaces: string[] = [];
before(() => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
});
after(() => remove(tempRoot, ...workspaces));

/**
 * A fare with a child reduction that adds instead of subtracting (line 10). The tests compare values, so the trace
 * names only the test file; line 10 is the one line the failing test runs and no passing test does.
 */
const fareJs = [
  'function fare(age, student, distanceKm) {', //  1
  '  let price = 2 + distanceKm * 0.5;', //        2
  '  if (student && distanceKm > 20) {', //        3
  '    price = price * 0.75 - 1;', //              4
  '  }', //                                        5
  '  if (age >= 65) {', //                         6
  '    price = price / 2;', //                     7
  '  }', //                                        8
  '  if (age < 12) {', //                          9
  '    price = price + 1;', //                     10
  '  }', //                                        11
  '  return Math.round(price * 100) / 100;', //    12
  '}', //                                          13
  'module.exports = { fare };',
  '',
].join('\n');

const fareTest = [
  "const test = require('node:test');",
  "const assert = require('node:assert/strict');",
  "const { fare } = require('../src/fare');",
  "test('adult', () => assert.equal(fare(30, false, 10), 7));",
  "test('senior', () => assert.equal(fare(70, false, 10), 3.5));",
  "test('student far', () => assert.equal(fare(20, true, 30), 11.75));",
  "test('senior student far', () => assert.equal(fare(70, true, 40), 7.75));",
  "test('child', () => assert.equal(fare(8, false, 10), 6));",
  '',
].join('\n');

const farePy = [
  'def fare(age, student, distance_km):', //       1
  '    price = 2 + distance_km * 0.5', //           2
  '    if student and distance_km > 20:', //        3
  '        price = price * 0.75 - 1', //            4
  '    if age >= 65:', //                           5
  '        price = price / 2', //                   6
  '    if age < 12:', //                            7
  '        price = price + 1', //                   8
  '    return round(price * 100) / 100', //         9
  '',
].join('\n');

const fareTestPy = [
  'from fare import fare',
  'def test_adult():',
  '    assert fare(30, False, 10) == 7',
  'def test_senior():',
  '    assert fare(70, False, 10) == 3.5',
  'def test_student_far():',
  '    assert fare(20, True, 30) == 11.75',
  'def test_senior_student_far():',
  '    assert fare(70, True, 40) == 7.75',
  'def test_child():',
  '    assert fare(8, False, 10) == 6',
  '',
].join('\n');

// Jest runs what babel-jest made of the file, inside a wrapper: only jest's own coverage maps it back to the file.
const fareJestTest = [
  "const { fare } = require('../src/fare');",
  "test('adult', () => expect(fare(30, false, 10)).toBe(7));",
  "test('senior', () => expect(fare(70, false, 10)).toBe(3.5));",
  "test('student far', () => expect(fare(20, true, 30)).toBe(11.75));",
  "test('senior student far', () => expect(fare(70, true, 40)).toBe(7.75));",
  "test('child', () => expect(fare(8, false, 10)).toBe(6));",
  '',
].join('\n');

interface Case {
  readonly name: string;
  readonly files: Record<string, string>;
  readonly file: string;
  readonly lines: readonly [number, number];
  readonly bugLine: number;
  readonly test: string;
  /** The workspace's packages: the engine's own (jest 29), linked. */
  readonly linkPackages?: boolean;
}

const cases: readonly Case[] = [
  { name: 'node --test', files: { 'src/fare.js': fareJs, 'test/fare.test.js': fareTest }, file: 'src/fare.js', lines: [1, 13], bugLine: 10, test: 'node --test test/' },
  { name: 'pytest', files: { 'fare.py': farePy, 'tests/test_fare.py': fareTestPy }, file: 'fare.py', lines: [1, 9], bugLine: 8, test: 'python3 -m pytest -q' },
  {
    name: 'jest (babel-jest)',
    files: { 'src/fare.js': fareJs, 'test/fare.test.js': fareJestTest, 'package.json': JSON.stringify({ name: 'fare', private: true, scripts: { test: 'jest' }, jest: { testEnvironment: 'node' } }) },
    file: 'src/fare.js',
    lines: [1, 13],
    bugLine: 10,
    test: 'npm test',
    linkPackages: true,
  },
];

function recordingLogger(lines: string[]): Logger {
  return { trace() {}, info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(String(m)) };
}

/** The whole function selected, the mutation provider, with or without localisation. */
async function fix(c: Case, ws: string, faultLocalisation: boolean, logs: string[]): Promise<FixResult> {
  const text = readFileSync(join(ws, c.file), 'utf8');
  const { start, end } = lineRangeToOffsets(text, c.lines[0], c.lines[1]);
  const request: FixRequest = {
    workspace: ws,
    relativePath: c.file,
    start,
    end,
    testCommand: c.test,
    samples: SAMPLES,
    testTimeoutMs: 600_000,
    totalTimeoutMs: 1_800_000,
    parallel: 4,
    baselineCheck: true,
    confirmRuns: 1,
    strengthCheck: 'off',
    faultLocalisation,
    isolation: { linkedFolders: ['node_modules'], excludes: [], allowNetwork: false, memoryMB: 0 },
    provider: createMutationProvider(),
    logger: recordingLogger(logs),
  };
  return runFix(request);
}

/**
 * 1-based position, in the order the provider yielded them, of the first verified candidate (which must be on the
 * bug's line); Infinity when none of the first `SAMPLES` was.
 */
function rankOfFix(result: FixResult, c: Case): number {
  const first = [...result.candidates].sort((a, b) => a.index - b.index).find((candidate) => candidate.verified);
  if (!first) return Infinity;
  assert.match(first.label ?? '', new RegExp(` on line ${c.bugLine}$`), `the first verified candidate is not on the bug's line: ${first.label}`);
  return first.index + 1;
}

describe('fault localisation through the engine', { concurrency: 1 }, () => {
  for (const c of cases) {
    it(`${c.name}: coverage ranks the buggy line first, so its fix comes earlier than without localisation`, async (t) => {
      const ws = makeWorkspace(c.files);
      workspaces.push(ws);
      if (c.linkPackages) symlinkSync(join(process.cwd(), 'node_modules'), join(ws, 'node_modules'));
      const onLogs: string[] = [];
      const offLogs: string[] = [];
      const on = await fix(c, ws, true, onLogs);
      const off = await fix(c, ws, false, offLogs);
      const rankOn = rankOfFix(on, c);
      const rankOff = rankOfFix(off, c);
      const said = onLogs.find((line) => line.startsWith('mutation:')) ?? '';
      assert.match(said, /coverage of 1 failing and 4 passing tests; top lines (\d+)/, onLogs.join('\n'));
      assert.equal(/top lines (\d+)/.exec(said)?.[1], String(c.bugLine), said);
      assert.doesNotMatch(offLogs.join('\n'), /fault localisation|coverage of/);
      assert.ok(rankOn <= 3 && rankOn < rankOff, `with localisation the fix is candidate ${rankOn}, without it ${rankOff}`);
      t.diagnostic(`${c.name}: the fix is candidate ${rankOn} with localisation, ${rankOff} without`);
    });
  }
});
