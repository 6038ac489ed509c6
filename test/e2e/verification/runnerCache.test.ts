// Jest's cache carried from the baseline into the request's later runs, on the project's own jest through the built
// CLI. Each run has a private /tmp, where jest's default cacheDirectory starts empty; a transformer stamps each file
// with the time it transformed it, and a test fails unless its own file was transformed before its process started:
// only a run that found the baseline's cache can pass it.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeWorkspace } from '../../unit/helpers/workspace';
import { FILES, candidatesRequest } from './sharedRoundsRequests';

const RIGHT = '  if (x < lo) return lo;\n  if (x > hi) return hi;';
const WRONG = '  if (x < lo) return lo;\n  if (x > hi) return x;';

const STAMP = "module.exports = { process(src) { return { code: 'var vfTransformedAt = ' + Date.now() + ';\\n' + src }; } };\n";
const CACHED_TEST = [
  "it('was transformed before this run started', function () {",
  '  var started = Date.now() - process.uptime() * 1000;',
  "  if (!(vfTransformedAt < started)) throw new Error('transformed in this run: ' + vfTransformedAt + ' >= ' + started);",
  '});',
  '',
].join('\n');

describe("jest's cache from the baseline (jest 29)", () => {
  it('starts each later run with the files the baseline transformed', async () => {
    const jest = { testEnvironment: 'node', transform: { '\\.js$': '<rootDir>/stamp.js' } };
    const ws = makeWorkspace({ ...FILES, 'stamp.js': STAMP, 'test/cached.test.js': CACHED_TEST, 'package.json': JSON.stringify({ name: 'jest-cache-demo', private: true, scripts: { test: 'jest' }, jest }) });
    symlinkSync(join(process.cwd(), 'node_modules'), join(ws, 'node_modules'));
    const r = await candidatesRequest(ws, 'src/calc.js', [RIGHT, WRONG]);
    assert.match(r.stderr, /per-test results \(jest\): 3 of 6 tests fail on the unmodified code: .*test\/cached\.test\.js > was transformed before this run started/, r.stderr);
    assert.match(r.stderr, /jest's cache: each later run starts with a copy of the baseline's \([\d.]+ MB, \d+ files; jest's default cacheDirectory, \/tmp\/jest_\w+, in the run's private \/tmp\)/, r.stderr);
    assert.deepEqual(r.statuses, ['pass', 'fail'], r.stderr);
    assert.equal(r.candidates[0].verified, true, r.stderr);
  });
});
