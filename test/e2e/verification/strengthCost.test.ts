// The strength check at a bounded cost, with real node --test runs: each stage of a variant gets a limit from the
// fix's own run of that stage, equivalent fixes share one set of variants, a fix's check the budget cannot decide is
// not started and the report says why, and the cost is in the log, --json and the human report.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { AT_LEAST_SOURCE as SOURCE } from '../../unit/helpers/atLeastFixtures';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const made: string[] = [];
after(() => remove(tempRoot, ...made));

// Line 2 of SOURCE compares with `>` where "at least" needs `>=` (test/unit/helpers/atLeastFixtures.ts).
const TESTS = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { atLeast } = require('../src/limit.js');",
  "test('the threshold itself counts', () => assert.strictEqual(atLeast(5, 5), true));",
  "test('above the threshold', () => assert.strictEqual(atLeast(6, 5), true));",
  "test('below the threshold', () => assert.strictEqual(atLeast(4, 5), false));",
  '',
].join('\n');
// A file the failing tests' run leaves out and every full run waits for: the full run is the longer stage.
const SLOW = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { atLeast } = require('../src/limit.js');",
  "test('a slow neighbour', async () => { await new Promise((r) => setTimeout(r, 2000)); assert.strictEqual(atLeast(9, 1), true); });",
  '',
].join('\n');

function workspace(): string {
  const ws = makeWorkspace({ 'src/limit.js': SOURCE, 'test/limit.test.js': TESTS, 'test/slow.test.js': SLOW, 'package.json': JSON.stringify({ name: 'limit', scripts: { test: 'node --test' } }) }, { git: true });
  made.push(ws);
  return ws;
}

function fixArgs(ws: string, candidates: string[], extra: string[]): string[] {
  const file = join(ws, '..', `${ws.split('/').pop()}-candidates.json`);
  writeFileSync(file, JSON.stringify(candidates));
  made.push(file);
  return ['fix', '--workspace', ws, '--file', 'src/limit.js', '--lines', '2-2', '--candidates', file, '--k', '1', '--confirm-runs', '1', ...extra];
}

const FIX = '  return quantity >= threshold;';
// The same code with other spacing, and the same behaviour written the other way round.
const SPACED = '  return quantity  >=  threshold ;';
const SWAPPED = '  return threshold <= quantity;';
const WRONG = '  return quantity < threshold;';

describe('the strength check at a bounded cost (node --test)', () => {
  it('shares one set of variants between equivalent fixes, stages each variant with limits from the fix\'s own runs, and reports its cost', async () => {
    const r = await runCli([...fixArgs(workspace(), [FIX, SPACED, SWAPPED, WRONG], ['--json', '--verbose', '--strength', 'quick', '--strength-budget', '0', '--behaviour', 'quick'])], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual([...json.verified].sort(), [0, 1, 2], r.stderr);
    assert.equal(json.behaviour?.status, 'compared', JSON.stringify(json.behaviour));
    const strength = (i: number) => json.candidates[i].strength;
    assert.ok(strength(0)?.variants > 0 && strength(0).sharedWith === undefined, JSON.stringify(strength(0)));
    assert.deepEqual([strength(1)?.sharedWith, strength(1)?.sharedBy], [1, 'text']);
    assert.deepEqual([strength(2)?.sharedWith, strength(2)?.sharedBy], [1, 'behaviour']);
    assert.equal(strength(2).caught, strength(0).caught, 'the shared outcomes are the first fix\'s');
    const cost = json.strengthCost;
    assert.equal(cost.sharedFixes, 2);
    assert.ok(cost.share > 0 && cost.share < 1 && cost.budgetMs === undefined, JSON.stringify(cost));
    // One fix's runs: its control run and its variants' stages (with retries), never three fixes' worth.
    assert.ok(cost.runs >= strength(0).variants + 1 && cost.runs <= 2 * (2 * strength(0).variants + 2), JSON.stringify(cost));
    assert.match(r.stderr, new RegExp(`strength check: ${cost.runs} runs, [\\d.]+ s, \\d+% of the request; 2 fixes shared an equivalent fix's variants`));
    // The failing tests' stage leaves the slow file out: its limit follows that shorter run, not the full one.
    const limits = /strength check of #1: each variant gets ([\d.]+) s for the failing tests and ([\d.]+) s for the full run/.exec(r.stderr);
    assert.ok(limits, r.stderr);
    assert.ok(Number(limits[1]) < Number(limits[2]), limits[0]);
  });

  it('starts no fix\'s check that its budget cannot decide, the best-ranked fix\'s included, and says why', async () => {
    const r = await runCli(fixArgs(workspace(), [FIX, SWAPPED, WRONG], ['--behaviour', 'off', '--strength', 'quick', '--strength-budget', '1']), { env });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /2 verified fixes/);
    // 1% of a request of a few seconds is tens of milliseconds: not even the best fix's control run fits in it, so no
    // run is spent on a check that could only end as "strength unknown" (nor its variants made, where the fix's own
    // runs already say one would not fit).
    // Each fix says its own estimate, not the first fix's.
    const unchecked = [...r.stdout.matchAll(/candidate #(\d+)[^\n]*\n  strength: not checked \(the strength check's budget \([\d.]+ s, 1% of the request .*\) could not decide it: deciding #(\d+) takes (?:about|at least) [\d.]+ s \(its control run, (?:\d+ of its \d+ variants at [\d.]+ s each, one of them|one variant at least, at [\d.]+ s,) running the rest too, 2 at a time, and half as much again for start-up and load\), more than the [\d.]+ s left/g)];
    assert.equal(unchecked.length, 2, r.stdout);
    for (const [, shown, deciding] of unchecked) assert.equal(deciding, shown, r.stdout);
    assert.doesNotMatch(r.stdout, /tests pin this change|strength unknown/);
    assert.match(r.stdout, /strength check: 0 runs, [\d.]+ s, \d+% of the request \(budget [\d.]+ s\)/);
  });
});
