// How each runner's tests record their lines: jest's own coverage (istanbul's JSON, already mapped back to the file
// through the transform's source maps) read from a real folder; node's and mocha's through NODE_V8_COVERAGE; vitest
// refused with why.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { JEST_COVERAGE_FOLDER, lineRecorderFor } from '../../src/core/localisation/lineRecorders';
import type { LineRecorder } from '../../src/core/localisation/lineRecorders';
import { tempRootMaker } from './helpers/workspace';

const folder = tempRootMaker();

function recorder(runner: 'jest' | 'node' | 'mocha'): LineRecorder {
  const found = lineRecorderFor(runner);
  assert.ok(!('problem' in found), `${runner} records no lines`);
  return found;
}

/** A statement of istanbul's map over lines `from`..`to`. */
const at = (from: number, to = from) => ({ start: { line: from, column: 0 }, end: { line: to, column: 1 } });

function jestOutput(coverage: unknown): string {
  const out = folder();
  mkdirSync(join(out, JEST_COVERAGE_FOLDER));
  writeFileSync(join(out, JEST_COVERAGE_FOLDER, 'coverage-final.json'), typeof coverage === 'string' ? coverage : JSON.stringify(coverage));
  return out;
}

const fileText = ['function f(x) {', '  if (x) {', '    return 1;', '  }', '  return 2;', '}', ''].join('\n');

describe('line recorders', () => {
  it('jest: adds its own coverage flags after the command, into the run\'s output folder', () => {
    const command = recorder('jest').command("JEST_REPORT=/r jest '--testNamePattern=^a$'", '/out dir');
    assert.equal(command, "JEST_REPORT=/r jest '--testNamePattern=^a$' --coverage --coverageProvider=v8 --coverageReporters=json " + `'--coverageDirectory=/out dir/${JEST_COVERAGE_FOLDER}'`);
  });

  it('jest: the lines of the statements that ran, of the file at its path in the run\'s folder', async () => {
    const out = jestOutput({
      '/run/tree/src/lib/f.js': { statementMap: { 0: at(1), 1: at(2), 2: at(3) }, s: { 0: 1, 1: 1, 2: 1 } },
      '/run/tree/lib/f.js': { statementMap: { 0: at(1, 2), 1: at(3), 2: at(5), 3: at(40) }, s: { 0: 3, 1: 0, 2: 3, 3: 1 } },
      '/elsewhere/lib/f.js': { statementMap: { 0: at(4) }, s: { 0: 1 } },
    });
    const recorded = await recorder('jest').read(out, '/run/tree');
    assert.deepEqual([...recorded.names].sort(), ['lib/f.js', 'src/lib/f.js']);
    // Line 3 did not run; line 40 lies past the file's end (a map that points nowhere in it).
    assert.deepEqual([...(recorded.linesOf('lib/f.js', fileText) ?? [])].sort(), [1, 2, 5]);
    assert.deepEqual([...(recorded.linesOf('src/lib/f.js', fileText) ?? [])].sort(), [1, 2, 3]);
    assert.equal(recorded.linesOf('lib/g.js', fileText), undefined);
  });

  it("jest: a file whose path only ends like the one asked for is another file", async () => {
    const recorded = await recorder('jest').read(jestOutput({ '/run/tree/src/util.js': { statementMap: { 0: at(1) }, s: { 0: 1 } } }), '/run/tree');
    assert.equal(recorded.linesOf('util.js', fileText), undefined);
  });

  it('jest: no report, a cut-short one or entries of another shape record nothing', async () => {
    assert.deepEqual((await recorder('jest').read(folder(), '/run')).names, []);
    assert.deepEqual((await recorder('jest').read(jestOutput('{"/run/a.js": {"statementMap"'), '/run')).names, []);
    const odd = await recorder('jest').read(jestOutput({ '/run/a.js': { s: { 0: 1 } }, '/run/b.js': 7 }), '/run');
    assert.deepEqual(odd.names, []);
    assert.equal(odd.linesOf('a.js', fileText), undefined);
  });

  it("jest: none where the command sets jest's coverage folder or provider itself (twice, jest would stop)", () => {
    for (const base of ['jest --coverage --coverageDirectory=cov', "./node_modules/.bin/jest '--coverage-provider' babel"]) {
      const found = lineRecorderFor('jest', base);
      assert.ok('problem' in found, base);
      assert.match(found.problem, /sets jest's --coverage-?(?:Directory|provider) itself/);
    }
    assert.ok(!('problem' in lineRecorderFor('jest', 'jest --coverage --coverageReporters=text')));
  });

  it("node and mocha: node's own coverage in the output folder; vitest and tape: why not", async () => {
    assert.equal(recorder('node').command('node --test', '/o'), "NODE_V8_COVERAGE=/o node --test");
    assert.equal(recorder('mocha').command('mocha', '/o'), "NODE_V8_COVERAGE=/o mocha");
    const empty = await recorder('node').read(folder(), '/run');
    assert.deepEqual(empty.names, []);
    assert.match((lineRecorderFor('vitest') as { problem: string }).problem, /vite transformed.*@vitest\/coverage-v8/);
    assert.match((lineRecorderFor('tape') as { problem: string }).problem, /not tape/);
  });
});
