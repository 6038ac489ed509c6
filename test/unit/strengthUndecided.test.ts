// A timeout is no verdict in the strength check: a variant that runs out of time gets one longer run, then is undecided.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeStrength, rankByStrength, strengthKnown } from '../../src/core/verification/strengthCheck';
import { checkStrength } from '../../src/core/verification/strengthRuns';
import type { TestStrength } from '../../src/core/contract/strength';

const source = 'function sumTo(n) {\n  let total = 0;\n  for (let i = 1; i <= n; i++) total += i;\n  return total;\n}\n';
const start = source.indexOf('  for');
const original = source.replace('i <= n', 'i < n');
const verdict = (durationMs: number) => ({ status: 'pass' as const, durationMs, exitCode: 0, output: '', stdout: '', stderr: '' });
const candidate = { index: 0, replacement: source.slice(start, source.indexOf('\n', start)), verdict: verdict(100), duplicateOf: null, runs: [verdict(100)], verified: true, flaky: false, diff: '', changeSize: 0, changedCharacters: 0 };

type Outcome = 'caught' | 'survived' | 'timedOut';
/** Runs the check with a verifier that answers `first(i)` for variant i's first try and `retry(i)` for its second. */
async function check(first: (i: number) => Outcome, retry: (i: number) => Outcome) {
  const calls: { label: string; timeoutMs: number }[] = [];
  const variantOf = (label: string) => Number(/v(\d+)/.exec(label)?.[1]);
  const verifier = {
    tryVariant: async (label: string, _text: string, timeoutMs: number) => {
      // The control run (the fix with a comment added) passes: the fix does not depend on its own text.
      if (label.endsWith('c')) return 'survived';
      calls.push({ label, timeoutMs });
      return label.endsWith('t') ? retry(variantOf(label)) : first(variantOf(label));
    },
  };
  let strength: TestStrength | undefined;
  await checkStrength({ level: 'quick', verifier, languageId: 'javascript', relativePath: 'sum.js', originalText: original, start, end: original.indexOf('\n', start), candidates: [candidate], ranking: [0] }, (_, s) => (strength = s));
  assert.ok(strength, 'the check reported a strength');
  return { strength, calls };
}

describe('the strength check under load', () => {
  it('re-runs a variant that timed out with a longer limit, and takes the second run\'s verdict', async () => {
    const { strength, calls } = await check((i) => (i === 0 ? 'timedOut' : 'caught'), () => 'survived');
    const retries = calls.filter((c) => c.label.endsWith('t'));
    assert.equal(retries.length, 1, 'only the variant that timed out runs again');
    const firstLimit = calls.find((c) => c.label === 's0v0')?.timeoutMs ?? 0;
    assert.ok(retries[0].timeoutMs > firstLimit, `the retry gets longer than ${firstLimit} ms: ${retries[0].timeoutMs}`);
    assert.equal(strength.survivors.length, 1);
    assert.equal(strength.undecided, undefined);
    assert.equal(strength.caught, strength.variants - 1);
  });

  it('counts a variant that times out twice as neither caught nor surviving, and says so', async () => {
    const { strength } = await check((i) => (i === 0 ? 'timedOut' : 'caught'), () => 'timedOut');
    assert.ok(strength.variants >= 3, JSON.stringify(strength));
    assert.equal(strength.undecided, 1);
    assert.equal(strength.caught, strength.variants - 1);
    assert.equal(strength.weak, false);
    if (strength.variants >= 10) {
      assert.ok(strengthKnown(strength));
      assert.equal(describeStrength(strength), `tests pin this change: ${strength.variants - 1} of ${strength.variants - 1} decided variants of it are caught (1 undecided: timed out)`);
    }
  });

  it('never says the tests pin a change when the undecided variants could be survivors: strength unknown', async () => {
    // The weak-tests case on a loaded machine: the variants that would pass run the whole suite and time out.
    const { strength } = await check((i) => (i < 3 ? 'timedOut' : 'caught'), () => 'timedOut');
    assert.equal(strength.undecided, 3);
    assert.equal(strengthKnown(strength), false);
    assert.match(describeStrength(strength), /^strength unknown: 3 of \d+ variants of this change have no outcome \(3 undecided: timed out\)/);
    assert.doesNotMatch(describeStrength(strength), /pin/);
  });

  it('judges weak on the decided variants: survivors stay a warning whatever the undecided did', async () => {
    const { strength } = await check((i) => (i < 2 ? 'timedOut' : i < 4 ? 'survived' : 'caught'), () => 'timedOut');
    assert.equal(strength.weak, true);
    assert.ok(strengthKnown(strength));
    const decided = strength.variants - 2;
    assert.equal(describeStrength(strength), `weak tests: 2 of ${decided} decided variants of this change also pass (2 undecided: timed out) — review it`);
  });

  it('ranks an unknown strength with the unknown ones: after pinned fixes, before weak ones', () => {
    const survivors = (n: number) => Array.from({ length: n }, () => ({ replacement: 'x', diff: '', label: 'x' }));
    const pinned: TestStrength = { variants: 10, caught: 10, survivors: [], weak: false };
    const unknown: TestStrength = { variants: 10, caught: 5, survivors: [], weak: false, undecided: 5 };
    const weak: TestStrength = { variants: 10, caught: 5, survivors: survivors(5), weak: true };
    assert.deepEqual(rankByStrength([1, 2, 3], new Map([[1, weak], [2, unknown], [3, pinned]])), [3, 2, 1]);
  });
});
