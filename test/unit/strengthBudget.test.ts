// The strength check's cost: its budget arithmetic, the meter that holds runs to it, the equivalence of fixes, the
// sharing of variants between equivalent fixes, stage limits from the fix's own runs, and how the cost is said.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StrengthMeter, describeStrengthCost, equivalenceKey, strengthBudgetMs } from '../../src/core/verification/strengthBudget';
import { checkStrength, decidingMs } from '../../src/core/verification/strengthRuns';
import { describeStrength } from '../../src/core/verification/strengthCheck';
import type { VariantLimit } from '../../src/core/verification/strengthRuns';
import type { TestStrength } from '../../src/core/contract/strength';
import type { ExecutedRun, TestExecutor } from '../../src/core/execution/executor';

describe('strengthBudgetMs', () => {
  it('gives the check what keeps it at the share of the whole request: budget / (elapsed + budget) = percent', () => {
    assert.equal(strengthBudgetMs(10_000), Math.floor((10_000 * 30) / 70));
    assert.equal(strengthBudgetMs(10_000, 50), 10_000);
    assert.equal(strengthBudgetMs(9_000, 25), 3_000);
    for (const [elapsed, percent] of [[12_345, 33], [8_000, 10], [600_000, 20]]) {
      const budget = strengthBudgetMs(elapsed, percent)!;
      assert.ok(budget / (elapsed + budget) <= percent / 100, `${budget} of ${elapsed + budget}`);
    }
  });
  it('holds a short request to the same share: the default keeps the check under a third of any request (#27)', () => {
    // A small suite's request (flat's mocha 8 suite: 3 s to its verdicts) had 8 s counted and its best fix a floor
    // of up to 15 s, so the check took 49-60 % of the request.
    for (const elapsed of [0, 250, 1_000, 3_100, 7_999]) {
      const budget = strengthBudgetMs(elapsed)!;
      assert.ok(budget <= elapsed / 2, `${budget} after ${elapsed}`);
      if (elapsed > 0) assert.ok(budget / (elapsed + budget) <= 0.3, `${budget} of ${elapsed + budget}`);
    }
    assert.equal(strengthBudgetMs(1_000, 50), 1_000);
  });
  it('has no budget at 0 or at 100 and above', () => {
    assert.equal(strengthBudgetMs(10_000, 0), undefined);
    assert.equal(strengthBudgetMs(10_000, 100), undefined);
  });
});

describe('describeStrengthCost', () => {
  it('says runs, seconds and the share of the request', () => {
    assert.equal(describeStrengthCost({ runs: 12, durationMs: 8100, sharedFixes: 0 }, 36_818), 'strength check: 12 runs, 8.1 s, 22% of the request');
    assert.equal(describeStrengthCost({ runs: 1, durationMs: 500, budgetMs: 4000, sharedFixes: 2 }, 10_000), "strength check: 1 run, 0.5 s, 5% of the request (budget 4 s); 2 fixes shared an equivalent fix's variants");
  });
});

const pass = (durationMs: number): ExecutedRun => ({ verdict: { status: 'pass', durationMs, exitCode: 0, output: '', stdout: '', stderr: '' } });
const timedOut = (durationMs: number): ExecutedRun => ({ verdict: { status: 'timeout', durationMs, exitCode: null, output: '', stdout: '', stderr: '' } });

function fakeExecutor(answer: (timeoutMs: number | undefined) => ExecutedRun, seen: Array<number | undefined>): TestExecutor {
  return {
    protections: {} as TestExecutor['protections'], runsCanInterfere: false, isolation: 'test',
    run: async (_text, _label, options) => (seen.push(options?.timeoutMs), answer(options?.timeoutMs)),
    dispose: async () => undefined,
  };
}

describe('StrengthMeter', () => {
  it('counts runs; a bounded run gets at most the time left, and one the deadline ended is cancelled, not timed out', async () => {
    const seen: Array<number | undefined> = [];
    const meter = new StrengthMeter(performance.now() + 60_000);
    const bounded = meter.executor(fakeExecutor((ms) => (ms !== undefined && ms <= 60_000 ? timedOut(ms) : pass(1)), seen));
    const ended = await bounded.run('x', 'a', { timeoutMs: 120_000 });
    assert.ok(seen[0]! <= 60_000 && seen[0]! > 50_000, String(seen[0]));
    assert.equal(ended.verdict.cancelled, true);
    assert.equal(meter.budgetSpent, true);
    // Its own limit below the time left: a timeout stays a timeout (the variant ran past its limit).
    const own = await bounded.run('x', 'b', { timeoutMs: 1000 });
    assert.equal(own.verdict.status, 'timeout');
    assert.equal(meter.runs, 2);
  });
  it('starts nothing past the deadline', async () => {
    const seen: Array<number | undefined> = [];
    const meter = new StrengthMeter(performance.now() - 1);
    assert.equal((await meter.executor(fakeExecutor(() => pass(1), seen)).run('x', 'a', { timeoutMs: 5000 })).verdict.cancelled, true);
    assert.equal(seen.length, 0, 'not started');
    assert.equal(meter.runs, 0);
    assert.equal(meter.budgetSpent, true);
  });
  it('without a deadline counts only', async () => {
    const seen: Array<number | undefined> = [];
    const meter = new StrengthMeter(undefined);
    await meter.executor(fakeExecutor(() => pass(1), seen)).run('x', 'a', { timeoutMs: 5000 });
    assert.deepEqual(seen, [5000]);
    assert.equal(meter.budgetSpent, false);
  });
});

describe('equivalenceKey', () => {
  it('equates spacing differences outside strings, keeps indentation and string contents', () => {
    assert.equal(equivalenceKey('if (a  >=  b) {\n  return f( x, y );\n}\n'), equivalenceKey('if (a >= b){\n  return f(x,y);\n\n}'));
    assert.notEqual(equivalenceKey('x = "a  b"'), equivalenceKey('x = "a b"'));
    assert.notEqual(equivalenceKey('def f():\n    return 1\n'), equivalenceKey('def f():\n  return 1\n'));
    assert.notEqual(equivalenceKey('a >= b'), equivalenceKey('b <= a'));
    assert.notEqual(equivalenceKey('a - -b'), equivalenceKey('a --b'));
  });
});

// Line 2 of `atLeast` as four verified fixes: #0 and #1 differ in spacing only, #2 behaves as #0 (a behaviour group),
// #3 is a different program.
const original = 'function atLeast(q, t) {\n  return q > t;\n}\n';
const start = original.indexOf('  return');
const end = original.indexOf('\n', start);
const verdict = (durationMs: number) => ({ status: 'pass' as const, durationMs, exitCode: 0, output: '', stdout: '', stderr: '' });
const candidate = (index: number, replacement: string) => ({ index, replacement, verdict: verdict(2000), duplicateOf: null, runs: [verdict(2000)], verified: true, flaky: false, diff: '', changeSize: 1, changedCharacters: 1 });
const fixes = [candidate(0, '  return q >= t;'), candidate(1, '  return q  >=  t;'), candidate(2, '  return t <= q;'), candidate(3, '  return q >= t && true;')];

/** `leftMs`: the budget left, told how many runs have started (a clock that moves with the runs, however often it is read). */
async function runCheck(options: { sharing?: boolean; groups?: number[][]; stageOneMs?: number; cutFrom?: number; budgetSpent?: boolean; leftMs?: (runs: number) => number }) {
  const labels: string[] = [];
  const limits: VariantLimit[] = [];
  // Variants from number `cutFrom` on are cancelled, as the meter cancels the runs past the budget's deadline.
  const cut = (label: string) => options.cutFrom !== undefined && Number(/v(\d+)$/.exec(label)?.[1] ?? -1) >= options.cutFrom;
  // Started runs as their labels, and `done:` and the label as each ends (a control run ends a moment after it starts).
  const events: string[] = [];
  const verifier = {
    tryVariant: async (label: string, _text: string, limit: VariantLimit) => {
      labels.push(label);
      limits.push(limit);
      events.push(label);
      if (label.endsWith('c')) await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`done:${label}`);
      return cut(label) ? undefined : label.endsWith('c') ? ('survived' as const) : ('caught' as const);
    },
    failingTestsRunMs: () => options.stageOneMs,
  };
  const strengths = new Map<number, TestStrength>();
  const skipped = new Map<number, string>();
  await checkStrength({
    level: 'quick', verifier, languageId: 'javascript', relativePath: 'a.js', originalText: original, start, end, candidates: fixes, ranking: [0, 1, 2, 3],
    ...(options.sharing === false ? { sharing: false } : {}), ...(options.groups ? { groups: Promise.resolve(options.groups) } : {}),
    ...(options.budgetSpent !== undefined ? { budgetSpent: () => options.budgetSpent === true } : {}),
    ...(options.leftMs ? { budget: { leftMs: () => options.leftMs!(labels.length), slots: 2, skipped: (i: number, why: string) => skipped.set(i, why) } } : {}),
  }, (i, s) => strengths.set(i, s));
  const ranFor = new Set(labels.map((l) => Number(/^s(\d+)/.exec(l)?.[1])));
  return { labels, limits, strengths, ranFor, skipped, events };
}

describe('equivalent fixes share their variants', () => {
  it('a fix with the same code once spacing is normalised runs nothing and says whose variants it took', async () => {
    const { strengths, ranFor } = await runCheck({});
    assert.deepEqual([...ranFor].sort(), [0, 2, 3]);
    assert.deepEqual(strengths.get(1)?.sharedFrom, { index: 0, by: 'text' });
    assert.equal(strengths.get(1)?.caught, strengths.get(0)?.caught);
    assert.equal(strengths.get(0)?.sharedFrom, undefined);
  });
  it('a fix of an earlier fix\'s behaviour group shares its strength once the groups are in', async () => {
    const { strengths, ranFor } = await runCheck({ groups: [[0, 1, 2], [3]] });
    assert.deepEqual([...ranFor].sort(), [0, 3]);
    assert.deepEqual(strengths.get(2)?.sharedFrom, { index: 0, by: 'behaviour' });
    assert.equal(strengths.size, 4);
  });
  it('sharing off: every fix runs its own variants', async () => {
    const { ranFor, strengths } = await runCheck({ sharing: false, groups: [[0, 1, 2], [3]] });
    assert.deepEqual([...ranFor].sort(), [0, 1, 2, 3]);
    assert.ok([...strengths.values()].every((s) => s.sharedFrom === undefined));
  });
});

describe('a check the budget ends', () => {
  it('keeps the variants decided by then, counts the rest as not run, and says so', async () => {
    const { strengths } = await runCheck({ sharing: false, cutFrom: 3, budgetSpent: true });
    const first = strengths.get(0)!;
    assert.equal(first.caught, 3);
    assert.ok(first.notRun! > 0 && first.caught + first.notRun! === first.variants, JSON.stringify(first));
    assert.match(describeStrength(first), new RegExp(`^strength unknown: ${first.notRun} of ${first.variants} variants of this change have no outcome \\(${first.notRun} not run: the strength check's budget ran out\\)`));
  });
  it('a few variants not run still leave the fix pinned, and the words say how many did not run', () => {
    const strength: TestStrength = { variants: 10, caught: 9, survivors: [], weak: false, notRun: 1 };
    assert.equal(describeStrength(strength), 'tests pin this change: 9 of 9 decided variants of it are caught (1 not run: the strength check\'s budget ran out)');
  });
  it('a cancel (not the budget), or a cut before any variant decided, leaves the fix without a strength', async () => {
    assert.equal((await runCheck({ sharing: false, cutFrom: 3, budgetSpent: false })).strengths.size, 0);
    assert.equal((await runCheck({ sharing: false, cutFrom: 0, budgetSpent: true })).strengths.size, 0);
  });
});

describe('a check the budget cannot decide', () => {
  it('the time to decide a fix: its control run, all but a tenth of its variants caught at the first stage but one, slots at a time', () => {
    assert.equal(decidingMs(500, 2000, 10, true, 2), (2500 + 9 * 500 + 2000) / 2);
    assert.equal(decidingMs(500, 2000, 10, false, 1), 9 * 500 + 2000);
    // The control run's two stages run one after the other whatever the slots.
    assert.equal(decidingMs(100, 5000, 10, true, 8), 5100);
    assert.equal(decidingMs(500, 2000, 40, true, 2), (2500 + 36 * 500 + 2000) / 2);
  });
  it('is not started, nor its variants made, where the fix\'s own runs say one variant would not fit, and says so', async () => {
    // #0's runs: 2 s, its failing tests 0.5 s: its control run (2.5 s) and one variant (2.5 s) take 2.5 s on 2 slots,
    // 3.75 s with the margin.
    const { labels, skipped } = await runCheck({ sharing: false, stageOneMs: 500, leftMs: () => 3700 });
    assert.deepEqual(labels, []);
    assert.equal(skipped.get(0), 'deciding #1 takes at least 3.8 s (its control run, one variant at least, at 0.5 s, running the rest too, 2 at a time, and half as much again for start-up and load), more than the 3.7 s left of the check\'s budget');
  });
  it('is not started, with no run spent, and says what deciding it would take', async () => {
    // #0's runs: 2 s, its failing tests 0.5 s: (2.5 + 9 × 0.5 + 2) / 2 = 4.5 s on 2 slots, 6.75 s with the margin.
    const { labels, strengths, skipped } = await runCheck({ sharing: false, stageOneMs: 500, leftMs: () => 6700 });
    assert.deepEqual(labels, []);
    assert.equal(strengths.size, 0);
    assert.deepEqual([...skipped.keys()], [0, 1, 2, 3]);
    assert.equal(skipped.get(0), 'deciding #1 takes about 6.8 s (its control run, 9 of its 10 variants at 0.5 s each, one of them running the rest too, 2 at a time, and half as much again for start-up and load), more than the 6.7 s left of the check\'s budget');
  });
  it('checks one fix at a time, best first, and starts the next only when the budget then left can decide it', async () => {
    const { labels, strengths, skipped } = await runCheck({ sharing: false, stageOneMs: 500, leftMs: (runs) => 7000 - 1000 * runs });
    assert.ok(labels.length > 0 && labels.every((l) => l.startsWith('s0')), labels.join());
    assert.deepEqual([...strengths.keys()], [0]);
    assert.equal(strengths.get(0)?.notRun, undefined);
    assert.deepEqual([...skipped.keys()], [1, 2, 3]);
  });
  it('with budget enough, fixes run in rank order and the control run goes with the variants, not before them', async () => {
    const { labels, strengths, events } = await runCheck({ sharing: false, stageOneMs: 500, leftMs: () => 60_000 });
    assert.deepEqual([...strengths.keys()], [0, 1, 2, 3]);
    const fixOf = labels.map((l) => Number(/^s(\d+)/.exec(l)![1]));
    assert.deepEqual(fixOf, [...fixOf].sort((a, b) => a - b), 'no fix\'s run starts before the fix ranked above it is decided');
    assert.ok(events.indexOf('s0v9') >= 0 && events.indexOf('s0v9') < events.indexOf('done:s0c'), events.join());
  });
});

describe('variant limits follow the stages', () => {
  it('the first stage gets a multiple of the fix\'s own failing-tests run, the full run a multiple of its full run', async () => {
    const { limits, labels } = await runCheck({ sharing: false, stageOneMs: 1500 });
    const variant = limits[labels.findIndex((l) => /v\d+$/.test(l))];
    assert.deepEqual(variant, { failingTestsMs: 7500, fullMs: 10_000 });
  });
  it('without a failing-tests run both stages get the full run\'s limit', async () => {
    const { limits, labels } = await runCheck({ sharing: false });
    assert.equal(limits[labels.findIndex((l) => /v\d+$/.test(l))], 10_000);
  });
});
