// Attack (issue #25 item 2): a candidate that steers the strength check. It hashes its own file and is right only while
// its text is unchanged, so every variant "is caught" and the check said the tests pin it, ranking it first. Now its
// control run (the fix with comments added on each changed line and at the end) is caught: "review required", no
// strength, ranked last; so is one that hashes only its own function's text.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { AT_LEAST_BUG as BUG, AT_LEAST_SOURCE as SOURCE, AT_LEAST_TESTS as TESTS, atLeastProject } from '../../unit/helpers/atLeastFixtures';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const made: string[] = [];
after(() => remove(tempRoot, ...made));

// The strength suites' atLeast project (test/unit/helpers/atLeastFixtures.ts).

/**
 * Right only while the text `source` reads (in the fix's file, `hashed` of it) hashes to the value on its key line,
 * which the hash leaves out; names computed so no static pattern matches.
 */
function forgedOn(source: string, hashed: (file: string) => string): string {
  const body = (hex: string) => [
    `  const text = ${source}.split('\\n').filter((l) => !l.includes('KEY' + '=')).join('\\n');`,
    "  const h = require('cr' + 'ypto').createHash('sha256').update(text).digest('hex');",
    `  return h === '${hex}' ? quantity >= threshold : quantity > threshold; // KEY=`,
  ].join('\n');
  const unkeyed = hashed(SOURCE.replace(BUG, body('x'))).split('\n').filter((l) => !l.includes('KEY=')).join('\n');
  return body(createHash('sha256').update(unkeyed).digest('hex'));
}
/** Hashes its whole file (`module.id` is the file's path). */
const forged = () => forgedOn("require('f' + 's')['readF' + 'ileSync'](module['i' + 'd'], 'utf8')", (file) => file);
/**
 * Hashes only its own function's text (`atLeast.toString()`): a comment at the end of the file leaves that text as it
 * is, so only a comment inside the change is seen.
 */
const forgedFunction = () => forgedOn("atLeast['toStr' + 'ing']()", (file) => `${file.split('\n}\n')[0]}\n}`);
const HONEST = '  return quantity >= threshold;';
/** Breaks out of the function and reads its own file by name: refused from ranking without running anything. */
const BREAKOUT = "  return quantity >= threshold + (require('fs').readFileSync(__filename).length > 0 ? 0 : 1);\n}\nglobalThis.seen = true;\nfunction unused() {";

describe('a candidate that steers the strength check', () => {
  it('is marked review required, gets no strength and is ranked after the honest fix', async () => {
    const ws = makeWorkspace(atLeastProject(TESTS), { git: true });
    made.push(ws);
    const file = join(tempRoot, 'candidates.json');
    // The forged candidate first: before, equal strength kept it first; its diff is larger than the honest one's.
    writeFileSync(file, JSON.stringify([forged(), forgedFunction(), BREAKOUT, HONEST]));
    const r = await runCli(['fix', '--workspace', ws, '--file', 'src/limit.js', '--lines', '2-2', '--candidates', file, '--k', '1', '--strength', 'quick', '--json'], { env });
    assert.equal(r.exitCode, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    const [forgedResult, forgedFunctionResult, breakout, honest] = json.candidates;
    assert.equal(forgedResult.verified, true, 'the forged candidate passes its own runs (it is right while unchanged)');
    assert.match(forgedResult.reviewRequired ?? '', /depends on its own source text/, JSON.stringify(forgedResult));
    assert.equal(forgedResult.strength, undefined, 'no "tests pin this change" for it');
    assert.equal(forgedFunctionResult.verified, true);
    assert.match(forgedFunctionResult.reviewRequired ?? '', /depends on its own source text/, JSON.stringify(forgedFunctionResult));
    assert.equal(forgedFunctionResult.strength, undefined);
    assert.equal(breakout.verified, true);
    assert.match(breakout.reviewRequired ?? '', /reads its own source/);
    assert.equal(breakout.strength, undefined);
    assert.equal(honest.reviewRequired, undefined);
    assert.ok(honest.strength?.variants > 0);
    assert.equal(json.verified[0], 3, `the honest fix first: ${JSON.stringify(json.verified)}`);
    assert.match(r.stderr, /review required, not ranked by strength/);
  });
});
