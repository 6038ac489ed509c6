// Stage 1 shared among candidates in one started vitest (vitestRounds.ts), on vitest 1, 2 and 3 through the built CLI:
// every candidate's verdict is the one it earns on its own, and where vitest keeps its workers nothing is shared.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { linkModuleEntries, makeWorkspace } from '../../unit/helpers/workspace';
import { CANDIDATES, FILES, candidatesRequest, expectOwnVerdicts } from './sharedRoundsRequests';

/** FILES as ES modules: vite transforms src/calc.js, so a round that kept the last candidate's transform would fail #4 and #10. */
const ESM_FILES: Record<string, string> = {
  'src/calc.js': ['export function clamp(x, lo, hi) {', '  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;', '}', ''].join('\n'),
  'test/clamp.test.js': FILES['test/clamp.test.js'].replace("var assert = require('assert');\nvar calc = require('../src/calc');", "import assert from 'node:assert';\nimport * as calc from '../src/calc.js';"),
  'test/low.test.js': FILES['test/low.test.js'].replace("var assert = require('assert');\nvar calc = require('../src/calc');", "import assert from 'node:assert';\nimport * as calc from '../src/calc.js';"),
  'test/other.test.js': FILES['test/other.test.js'].replace("var assert = require('assert');", "import assert from 'node:assert';"),
};

/**
 * Vitest runs each test file in a worker of its own (a thread in vitest 1, a process from 2), so globals and
 * built-ins stay in their round; the loop (first in its process: the CPU of the live fork counts) and the syntax error
 * (no test runs: the candidate runs on its own) are met as in jest. vitest 1 loads the CommonJS tests (node's require),
 * 2 and 3 (the project's own) the ES modules, which go through vite's transform and vite-node's cache.
 */
const VITEST_CASES = [
  ['vitest-1', cachedRunner('vitest-1', 'vitest'), FILES, 'commonjs'],
  ['vitest-2', cachedRunner('vitest-2', 'vitest'), ESM_FILES, 'module'],
  ['vitest-3', join(process.cwd(), 'node_modules'), ESM_FILES, 'module'], // the project's own
] as const;
/** Every candidate's own verdict on vitest, the first failure stopping stage 1 (expectOwnVerdicts). */
const ownVitestVerdicts = (ws: string) =>
  expectOwnVerdicts({ runner: 'vitest', ws, file: 'src/calc.js', candidates: CANDIDATES, unparsable: 6, failingTest: /caps (?:at hi|far above)/, ownContexts: true, mayEndNone: true, stopsAtFirstFailure: true });

/** ESM_FILES with `config` as vitest.config.mjs and `vitest run` as the test script, on this project's vitest 3. */
function configuredWorkspace(name: string, config: string): string {
  const ws = makeWorkspace({ ...ESM_FILES, 'vitest.config.mjs': config, 'package.json': JSON.stringify({ name, private: true, type: 'module', scripts: { test: 'vitest run' } }) });
  linkModuleEntries(join(process.cwd(), 'node_modules'), ws);
  return ws;
}

for (const [folder, modules, files, type] of VITEST_CASES) {
  describe(`stage 1 shared among candidates on ${folder} (${type})`, { skip: modules ? false : missingRunner(folder) }, () => {
    it('gives every candidate the verdict it earns alone, and says the process was shared and why it ended', async () => {
      const ws = makeWorkspace({ ...files, 'package.json': JSON.stringify({ name: 'shared-vitest-demo', private: true, type, scripts: { test: 'vitest run --globals' } }) });
      linkModuleEntries(modules as string, ws);
      await ownVitestVerdicts(ws);
    });
  });
}

describe('stage 1 shared on vitest whose config names its reporters (the wrapper config adds the engine\'s)', () => {
  it('shares, and each candidate gets the verdict it earns alone', async () => {
    await ownVitestVerdicts(configuredWorkspace('reporters-vitest-demo', "export default { test: { globals: true, reporters: ['dot'] } };\n"));
  });
});

describe('stage 1 on vitest whose workers keep what they loaded (isolate: false)', () => {
  it('ends sharing after the first process\'s first round, and every candidate still gets its own verdict', async () => {
    const ws = configuredWorkspace('kept-vitest-demo', 'export default { test: { isolate: false, globals: true } };\n');
    const r = await candidatesRequest(ws, 'src/calc.js', ['  if (x < lo) return lo;\n  if (x > hi) return x;', '  if (x < lo) return hi;\n  if (x > hi) return lo;', '  if (x < lo) return lo;\n  if (x > hi) return hi - 1;', '  if (x < lo) return lo;\n  if (x > hi) return hi;']);
    assert.match(r.stderr, /stage 1 runs one process per candidate from here on: the runner keeps its workers from one run to the next, and what they loaded with them \(isolate: false\)/);
    assert.doesNotMatch(r.stderr, /ended after [2-9]/, 'no process runs a second round');
    assert.deepEqual(r.statuses, ['fail', 'fail', 'fail', 'pass']);
  });
});
