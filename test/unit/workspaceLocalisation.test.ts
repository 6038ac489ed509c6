// Workspace-level localisation without runs: functions found by the parser, ranked by their lines' Ochiai scores and
// stack frames (innermost function owns a line), the sentences, and which files count as source.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enclosingFunctionAt, functionAt, functionSpans } from '../../src/core/localisation/functionSpans';
import { isSourceFile } from '../../src/core/localisation/localiseWorkspace';
import { ochiai } from '../../src/core/localisation/ochiai';
import { rankFunctions, testLabel, whatFailingTestsRun } from '../../src/core/localisation/rankFunctions';
import { lineKey } from '../../src/core/localisation/workspaceCoverage';
import type { WorkspaceSpectrum } from '../../src/core/localisation/workspaceCoverage';

const rangeJs = [
  "const { toInt } = require('./util');", // 1
  'function clamp(value, low, high) {', //   2
  '  const v = toInt(value);', //            3
  '  if (v > high) {', //                    4
  '    return low;', //                      5
  '  }', //                                  6
  '  return [v].map((x) => {', //            7
  '    return x;', //                        8
  '  })[0];', //                             9
  '}', //                                    10
  'class Range {', //                        11
  '  width() { return 1; }', //              12
  '}', //                                    13
  'const half = (n) => n / 2;', //           14
  '',
].join('\n');
const utilJs = ['function toInt(value) {', '  return Math.trunc(Number(value));', '}', ''].join('\n');
const utilPy = ['def to_int(value):', '    return int(value)', '', 'class Box:', '    def size(self):', '        return 1', ''].join('\n');

const keys = (file: string, ...lines: number[]) => lines.map((line) => lineKey(file, line));
const spectrum = (id: string, failed: boolean, ...lines: string[]): WorkspaceSpectrum => ({ id, failed, lines: new Set(lines) });

describe('function spans', () => {
  it('names declarations, methods with their class, arrow functions by their variable, callbacks by their line', async () => {
    const spans = await functionSpans('javascript', rangeJs);
    assert.deepEqual(spans.map((s) => [s.name, s.startLine, s.endLine, s.depth]), [
      ['clamp', 2, 10, 0], ['function at line 7', 7, 9, 1], ['Range.width', 12, 12, 0], ['half', 14, 14, 0],
    ]);
    assert.equal(functionAt(spans, 8)?.name, 'function at line 7', 'the innermost function owns a line');
    assert.equal(functionAt(spans, 5)?.name, 'clamp');
    assert.equal(functionAt(spans, 1), undefined);
    assert.equal((await enclosingFunctionAt('javascript', rangeJs, rangeJs.indexOf('return low')))?.name, 'clamp');
    const py = await functionSpans('python', utilPy);
    assert.deepEqual(py.map((s) => [s.name, s.startLine, s.endLine]), [['to_int', 1, 2], ['Box.size', 5, 6]]);
    assert.deepEqual(await functionSpans('plaintext', 'x'), []);
  });
});

describe('ranking functions', () => {
  it('the function only the failing test runs comes before the helper every test runs; the sentence names both with scores', async () => {
    const spectra = [
      spectrum('test/range.test.js > clamp keeps the upper bound', true, ...keys('src/range.js', 2, 3, 4, 5), ...keys('src/util.js', 1, 2)),
      spectrum('test/range.test.js > inside', false, ...keys('src/range.js', 2, 3, 4, 7, 8), ...keys('src/util.js', 1, 2)),
      spectrum('test/util.test.js > toInt', false, ...keys('src/util.js', 1, 2)),
      spectrum('test/util.test.js > toInt again', false, ...keys('src/util.js', 1, 2)),
    ];
    const scores = ochiai<string>(spectra);
    const sources = [
      { relativePath: 'src/range.js', spans: await functionSpans('javascript', rangeJs) },
      { relativePath: 'src/util.js', spans: await functionSpans('javascript', utilJs) },
    ];
    const ranked = rankFunctions({ sources, scores, stack: new Map() });
    assert.deepEqual(ranked.map((f) => [f.relativePath, f.name, Number(f.score.toFixed(3))]), [
      ['src/range.js', 'clamp', 1],
      ['src/util.js', 'toInt', 0.5], // 1 / sqrt(1 × (1 + 3))
    ]);
    assert.deepEqual(whatFailingTestsRun(spectra, ranked), ['the failing test `clamp keeps the upper bound` runs src/range.js:clamp (score 1.0), src/util.js:toInt (0.5)']);
  });

  it('stack frames alone rank where there is no coverage, and break ties between equal coverage', async () => {
    const sources = [
      { relativePath: 'src/range.js', spans: await functionSpans('javascript', rangeJs) },
      { relativePath: 'src/util.js', spans: await functionSpans('javascript', utilJs) },
    ];
    const framesOnly = rankFunctions({ sources, scores: new Map(), stack: new Map([['src/util.js', new Map([[2, 1]])], ['src/range.js', new Map([[3, 0.5]])]]) });
    assert.deepEqual(framesOnly.map((f) => f.name), ['toInt', 'clamp']);
    const tied = rankFunctions({ sources, scores: new Map([[lineKey('src/range.js', 14), 1], [lineKey('src/util.js', 2), 1]]), stack: new Map([['src/util.js', new Map([[2, 1]])]]) });
    assert.equal(tied[0].name, 'toInt', 'with coverage alike, the frame decides');
  });

  it('test labels drop the file', () => {
    assert.equal(testLabel('test/range.test.js > clamp > keeps'), 'clamp > keeps');
  });
});

describe('source files', () => {
  it('takes the project\'s own code, not tests, dependencies, build output or configuration', () => {
    for (const yes of ['src/range.js', 'lib/a.ts', 'pkg/mod.py', 'main.go', 'index.mjs']) assert.ok(isSourceFile(yes), yes);
    for (const no of ['test/range.test.js', 'src/a.spec.ts', 'tests/test_a.py', 'node_modules/x/index.js', 'dist/cli.js', 'jest.config.js', 'types.d.ts', 'README.md', 'conftest.py', '.venv/lib/a.py']) {
      assert.ok(!isSourceFile(no), no);
    }
  });
});
