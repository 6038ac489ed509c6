// The strength check: variants of a verified fix through the same tests, strong and weak tests in JavaScript and
// Python, its wording in the CLI and JSON, its budget, cancel, the ranking, and statistics left alone.
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runFix } from '../../../src/core/engine/runFix';
import type { FixEvent, FixRequest } from '../../../src/core/contract/fixRequest';
import { createFileProvider } from '../../../src/core/providers/fileProvider';
import { describeStrength, rankByStrength, strengthKnown } from '../../../src/core/verification/strengthCheck';
import { checkStrength } from '../../../src/core/verification/strengthRuns';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { AT_LEAST_TESTS as JS_STRONG, atLeastProject } from '../../unit/helpers/atLeastFixtures';
import type { TestStrength } from '../../../src/core/contract/strength';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
before(() => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
});
const made: string[] = [];
after(() => remove(tempRoot, ...made));

// Line 2 of src/limit.js compares with `>` where "at least" needs `>=` (test/unit/helpers/atLeastFixtures.ts).
// Only the case the bug breaks: `<=`, `==` and swapped operands pass it too.
const JS_WEAK = JS_STRONG.split('\n').slice(0, 4).join('\n');

function jsWorkspace(tests: string): string {
  const ws = makeWorkspace(atLeastProject(tests), { git: true });
  made.push(ws);
  return ws;
}

const fixArgs = (ws: string, candidates: string[], extra: string[] = []) => {
  const file = join(ws, '..', `${ws.split('/').pop()}-candidates.json`);
  writeFileSync(file, JSON.stringify(candidates));
  made.push(file);
  return ['fix', '--workspace', ws, '--file', 'src/limit.js', '--lines', '2-2', '--candidates', file, '--k', '1', '--confirm-runs', '1', ...extra];
};

describe('the strength check through the CLI (JavaScript, node --test)', () => {
  const fix = '  return quantity >= threshold;';
  const wrong = '  return quantity < threshold;';

  it('says strong tests pin the fix, with the numbers, and leaves the statistics alone', async () => {
    const ws = jsWorkspace(JS_STRONG);
    const r = await runCli([...fixArgs(ws, [wrong, fix]), '--json', '--strength', 'quick'], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    const verified = json.candidates[1];
    assert.ok(verified.strength.variants > 0 && verified.strength.variants <= 10, JSON.stringify(verified.strength));
    // Variants that timed out twice on a loaded machine are undecided, never caught or surviving.
    assert.equal(verified.strength.caught + (verified.strength.undecided ?? 0), verified.strength.variants);
    assert.equal(verified.strength.weak, false);
    assert.deepEqual(verified.strength.survivors, []);
    assert.equal(json.candidates[0].strength, undefined, 'only verified candidates are checked');
    assert.match(r.stderr, /candidate #2: (tests pin this change: (all \d+ variants of it are caught|\d+ of \d+ decided variants of it are caught \(\d+ undecided: timed out\))|strength unknown: )/);
    const off = JSON.parse((await runCli([...fixArgs(ws, [wrong, fix]), '--json', '--strength', 'off'], { env })).stdout);
    assert.equal(off.candidates[1].strength, undefined);
    for (const field of ['samples', 'passed', 'passAtK', 'passHatK', 'verified']) assert.deepEqual(json[field], off[field], `${field} is the same with and without the check`);
  });

  it('warns that weak tests also accept variants, shows them, and says when several fixes pass', async () => {
    const ws = jsWorkspace(JS_WEAK);
    const other = '  return quantity >= threshold && true;';
    const r = await runCli([...fixArgs(ws, [fix, other]), '--strength', 'quick'], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /2 (different fixes pass: the tests do not decide between them|fixes pass and behave the same on all \d+ inputs tried)/);
    assert.match(r.stdout, /weak tests: (\d+) of (\d+) variants of this change also pass — review it/);
    assert.match(r.stdout, /also passes: .*\n=+\n--- a\/src\/limit\.js/);
    const json = JSON.parse((await runCli([...fixArgs(ws, [fix]), '--json', '--strength', 'thorough'], { env })).stdout);
    const { strength } = json.candidates[0];
    assert.equal(strength.weak, true);
    assert.ok(strength.survivors.length >= 2, JSON.stringify(strength));
    assert.ok(strength.survivors.every((s: { replacement: string; diff: string }) => typeof s.replacement === 'string' && /^-  return quantity >= threshold;$/m.test(s.diff)));
    assert.ok(strength.survivors.some((s: { replacement: string }) => /<=|==/.test(s.replacement)), 'the `<=` or `==` variant passes these tests');
  });
});

function pyWorkspace(strong: boolean): string {
  const tests = [
    'from limit import at_least',
    'def test_threshold_counts():\n    assert at_least(5, 5) is True',
    ...(strong ? ['def test_above():\n    assert at_least(6, 5) is True', 'def test_below():\n    assert at_least(4, 5) is False'] : []),
  ].join('\n\n');
  const ws = makeWorkspace({ 'limit.py': 'def at_least(quantity, threshold):\n    return quantity > threshold\n', 'test_limit.py': `${tests}\n` }, { git: true });
  made.push(ws);
  return ws;
}

function pyRequest(ws: string, overrides: Partial<FixRequest> = {}): FixRequest {
  const text = 'def at_least(quantity, threshold):\n    return quantity > threshold\n';
  const start = text.indexOf('    return');
  return {
    workspace: ws, relativePath: 'limit.py', start, end: text.length - 1, languageId: 'python', testCommand: 'python3 -m pytest -q -p no:cacheprovider',
    // Generous limits: the total timeout ends the strength check too (no strength), which load 27 reached at 300 s.
    samples: 2, testTimeoutMs: 300_000, totalTimeoutMs: 1_200_000, parallel: 2, baselineCheck: true, confirmRuns: 1, strengthBudget: 0,
    isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 },
    provider: createFileProvider(['    return quantity < threshold', '    return quantity >= threshold']), ...overrides,
  };
}

describe('the strength check in the engine (Python, pytest)', () => {
  it('tells strong from weak tests', async () => {
    const [strong, weak] = await Promise.all([runFix(pyRequest(pyWorkspace(true))), runFix(pyRequest(pyWorkspace(false)))]);
    for (const result of [strong, weak]) assert.deepEqual(result.verified, [1], result.candidates.map((c) => c.verdict.output).join('\n'));
    // On a loaded machine variants may time out twice and stay undecided: then "unknown" is right, the wrong verdict never.
    const pinned = strong.candidates[1].strength;
    assert.ok(pinned && pinned.variants > 0 && !pinned.weak && (!strengthKnown(pinned) || pinned.survivors.length === 0), JSON.stringify(pinned));
    const loose = weak.candidates[1].strength;
    assert.ok(loose && (loose.weak || !strengthKnown(loose)), JSON.stringify(loose));
    assert.match(describeStrength(loose), /^(weak tests: \d+ of \d+ (decided )?variants of this change also pass( \(\d+ undecided: timed out\))? — review it|strength unknown: .*)$/);
    assert.equal(strong.samples, 2, 'variants are not samples');
    assert.equal(weak.passed, 1);
  });

  it('stops when cancelled: the verdicts stand, the unfinished check gives no strength, nothing is left', async () => {
    const controller = new AbortController();
    const events: FixEvent['type'][] = [];
    const result = await runFix(pyRequest(pyWorkspace(true), { signal: controller.signal, strengthCheck: 'thorough' }), (event) => {
      events.push(event.type);
      if (event.type === 'verdicts') setTimeout(() => controller.abort(), 50);
    });
    assert.ok(events.includes('verdicts'));
    assert.equal(events.at(-1), 'done');
    assert.deepEqual(result.verified, [1]);
    assert.equal(result.candidates[1].strength, undefined);
    assert.equal(result.stoppedEarly, undefined, 'every verdict was in: the request did not stop early');
    assert.deepEqual(readdirSync(tempRoot).filter((name) => name !== 'owner.json'), []);
  });
});

describe('checkStrength', () => {
  it('gives each variant five times its fix\'s slowest run (at least 2 s), so a looping variant does not hold a slot for the whole limit', async () => {
    const source = 'function sumTo(n) {\n  let total = 0;\n  for (let i = 1; i <= n; i++) total += i;\n  return total;\n}\n';
    const start = source.indexOf('  for');
    const end = source.indexOf('\n', start);
    const seen: number[] = [];
    // The control run (the fix with a comment added) passes; the variants are caught.
    const verifier = { tryVariant: async (label: string, _text: string, timeoutMs: number) => (label.endsWith('c') ? ('survived' as const) : (seen.push(timeoutMs), 'caught' as const)) };
    const verdict = (durationMs: number) => ({ status: 'pass' as const, durationMs, exitCode: 0, output: '', stdout: '', stderr: '' });
    const candidate = (index: number, durations: number[]) => ({
      index, replacement: source.slice(start, end), verdict: verdict(durations[0]), duplicateOf: null, runs: durations.map(verdict), verified: true, flaky: false, diff: '', changeSize: 0, changedCharacters: 0,
    });
    const found = new Map<number, TestStrength>();
    const original = source.replace('i <= n', 'i < n');
    await checkStrength({ level: 'quick', verifier, languageId: 'javascript', relativePath: 'sum.js', originalText: original, start, end: original.indexOf('\n', start), candidates: [candidate(0, [1000, 3000])], ranking: [0] }, (i, s) => found.set(i, s));
    assert.ok(seen.length > 0, 'variants ran');
    assert.deepEqual(new Set(seen), new Set([15_000]));
    assert.equal(found.get(0)?.caught, seen.length);
    seen.length = 0;
    await checkStrength({ level: 'quick', verifier, languageId: 'javascript', relativePath: 'sum.js', originalText: original, start, end: original.indexOf('\n', start), candidates: [candidate(0, [100])], ranking: [0] }, () => undefined);
    assert.deepEqual(new Set(seen), new Set([2000]));
  });
});

describe('rankByStrength', () => {
  const strength = (variants: number, survivors: number): TestStrength => ({
    variants, caught: variants - survivors, weak: survivors * 10 > variants,
    survivors: Array.from({ length: survivors }, () => ({ replacement: 'x', diff: '', label: 'x' })),
  });
  it('puts firmly pinned fixes first, unknown ones next, weak ones last, and keeps the size order within each', () => {
    const strengths = new Map([[1, strength(10, 5)], [2, strength(10, 0)], [3, strength(0, 0)], [4, strength(10, 1)], [5, strength(10, 0)]]);
    assert.deepEqual(rankByStrength([1, 2, 3, 4, 5, 6], strengths), [2, 5, 4, 3, 6, 1]);
  });
});
