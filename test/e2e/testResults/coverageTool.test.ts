// A test script under a real coverage tool (c8 10, `c8 --100 node --test`, as fastify's packages publish it): the
// runner inside it is read test by test and staged, the runs leave c8 out, and the log says so.
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CLAMP_SOURCE, clampFixRequest } from '../../unit/helpers/hookRunners';
import { cachedRunner, missingRunner } from '../../unit/helpers/runners';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

const modules = cachedRunner('c8-10', 'c8');

describe('a test script under c8', { skip: modules ? false : missingRunner('c8-10') }, () => {
  it('reads node --test inside `c8 --100` test by test, stages the failing file, and verifies the fix', async () => {
    const ws = makeWorkspace({
      'package.json': JSON.stringify({ name: 'covered', private: true, scripts: { test: 'c8 --100 --reporter=text node --test' } }),
      'src/calc.js': CLAMP_SOURCE,
      'test/clamp.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "const { clamp } = require('../src/calc');",
        "test('caps at hi', () => assert.equal(clamp(15, 0, 10), 10));",
        "test('keeps a value inside', () => assert.equal(clamp(5, 0, 10), 5));",
        '',
      ].join('\n'),
      // A file stage 1 leaves out.
      'test/other.test.js': ["const test = require('node:test');", "test('other', () => {});", ''].join('\n'),
    });
    symlinkSync(modules as string, join(ws, 'node_modules'));
    made.push(ws);
    const { log, ...r } = await clampFixRequest(ws, made);
    assert.equal(r.exitCode, 0, log);
    assert.match(log, /coverage: the runs start `node --test` without `c8` in front/);
    assert.doesNotMatch(log, /per-test results: not available|judged by its exit code alone/);
    assert.match(log, /per-test results \(node\): 1 of 3 tests fail on the unmodified code: test\/clamp\.test\.js > caps at hi/);
    assert.match(log, /stage 1 \(the failing tests\)/);
    assert.match(r.stdout, /fixes 1 failing test · 2 others still pass/);
  });
});
