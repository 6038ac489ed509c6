// Jest's bail, in the config or on the command line, ends the process at the first failing test file after the
// reporters ran and before the results processor: every failing run left no per-test report. The runs the engine
// reads add --bail=0 (jest.ts), on jest 26, 29 (the project's own) and 30.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeWorkspace } from '../../unit/helpers/workspace';
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
