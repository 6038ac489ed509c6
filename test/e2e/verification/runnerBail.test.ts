// A bail the engine's runs do not keep. Jest's, in the config or on the command line, ends the process at the first
// failing test file after the reporters ran and before the results processor: every failing run left no per-test
// report; the runs the engine reads add --bail=0 (jest.ts), on jest 26, 29 (the project's own) and 30. Vitest's in
// the config ended the baseline at its first failing file, so it named only that file's failing tests and its time
// bounded every run; the wrapper config sets it to 0 (vitestConfig.ts), on vitest 1, 2 and 3 (the project's own).
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { linkModuleEntries, makeWorkspace } from '../../unit/helpers/workspace';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { FILES, candidatesRequest } from './sharedRoundsRequests';

const RIGHT = '  if (x < lo) return lo;\n  if (x > hi) return hi;';
const WRONG = '  if (x < lo) return lo;\n  if (x > hi) return x;';

const RELEASES = [
  ['jest-26', cachedRunner('jest-26', 'jest')],
  ['jest-29', join(process.cwd(), 'node_modules')],
  ['jest-30', cachedRunner('jest-30', 'jest')],
] as const;

for (const [folder, modules] of RELEASES) {
  describe(`jest's bail (${folder})`, { skip: modules ? false : missingRunner(folder) }, () => {
    for (const [how, script, jest] of [
      ['in the config', 'jest', { testEnvironment: 'node', bail: 1 }],
      ['on the command line', 'jest --bail', { testEnvironment: 'node' }],
    ] as const) {
      it(`keeps per-test results with bail ${how}`, async () => {
        const ws = makeWorkspace({ ...FILES, 'package.json': JSON.stringify({ name: 'jest-bail-demo', private: true, scripts: { test: script }, jest }) });
        symlinkSync(modules as string, join(ws, 'node_modules'));
        const r = await candidatesRequest(ws, 'src/calc.js', [RIGHT, WRONG]);
        assert.match(r.stderr, /per-test results \(jest\): 2 of 5 tests fail on the unmodified code: test\/clamp\.test\.js > clamp > caps at hi, test\/clamp\.test\.js > clamp > caps far above/, r.stderr);
        assert.deepEqual(r.statuses, ['pass', 'fail'], r.stderr);
        assert.match(r.candidates[1].failure ?? '', /^still failing: test\/clamp\.test\.js > clamp > caps at hi/, r.stderr);
        assert.equal(r.candidates[0].verified, true, r.stderr);
      });
    }
  });
}

/** Two test files, each with a failing test, run one after the other: a bail at the first failing file skips the second. */
const VITEST_FILES: Record<string, string> = {
  'src/calc.js': ['export function clamp(x, lo, hi) {', '  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;', '}', ''].join('\n'),
  'test/a.test.js': "import { expect, test } from 'vitest';\nimport { clamp } from '../src/calc.js';\ntest('inside', () => expect(clamp(5, 0, 10)).toBe(5));\ntest('caps at hi', () => expect(clamp(15, 0, 10)).toBe(10));\n",
  'test/b.test.js': "import { expect, test } from 'vitest';\nimport { clamp } from '../src/calc.js';\ntest('caps far above', () => expect(clamp(99, 0, 10)).toBe(10));\n",
  'vitest.config.mjs': 'export default { test: { bail: 1, fileParallelism: false } };\n',
  'package.json': JSON.stringify({ name: 'vitest-bail-demo', private: true, type: 'module', scripts: { test: 'vitest run' } }),
};

const VITEST_RELEASES = [
  ['vitest-1', cachedRunner('vitest-1', 'vitest')],
  ['vitest-2', cachedRunner('vitest-2', 'vitest')],
  ['vitest-3', join(process.cwd(), 'node_modules')],
] as const;

for (const [folder, modules] of VITEST_RELEASES) {
  describe(`vitest's bail in the config (${folder})`, { skip: modules ? false : missingRunner(folder) }, () => {
    it('names every failing test on the unmodified code, not those of the first failing file', async () => {
      const ws = makeWorkspace(VITEST_FILES);
      linkModuleEntries(modules as string, ws);
      const r = await candidatesRequest(ws, 'src/calc.js', [RIGHT, WRONG]);
      assert.match(r.stderr, /per-test results \(vitest\): 2 of 3 tests fail on the unmodified code: test\/a\.test\.js > caps at hi, test\/b\.test\.js > caps far above/, r.stderr);
      assert.match(r.stderr, /time limit: each candidate's run gets [\d.]+ s \((?:5× the baseline|the 5 s floor)/, r.stderr);
      assert.deepEqual(r.statuses, ['pass', 'fail'], r.stderr);
      assert.equal(r.candidates[0].verified, true, r.stderr);
    });
  });
}

describe("vitest's bail in an inline project (vitest-3)", () => {
  it('names every failing test on the unmodified code', async () => {
    const config = "export default { test: { fileParallelism: false, projects: [{ test: { name: 'unit', include: ['test/*.test.js'], bail: 1 } }] } };\n";
    const ws = makeWorkspace({ ...VITEST_FILES, 'vitest.config.mjs': config });
    linkModuleEntries(join(process.cwd(), 'node_modules'), ws);
    const r = await candidatesRequest(ws, 'src/calc.js', [RIGHT, WRONG]);
    assert.match(r.stderr, /per-test results \(vitest\): 2 of 3 tests fail on the unmodified code/, r.stderr);
    assert.equal(r.candidates[0].verified, true, r.stderr);
  });
});
