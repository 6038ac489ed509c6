// What one request's baseline keeps for the next request on the same workspace (warmStart.ts), on real runners through
// the built CLI. In each workspace one test passes only where what it needs was made before its run started: a
// helper's bytecode and pytest's rewrite of a test module in a read-only folder; a test file jest transformed. Within
// a request, the runs after the baseline start from the baseline's, so the test fails on the unmodified code and
// passes with any candidate; the second request's baseline passes it only where it starts from what the first kept.
// No run sees where it is kept.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeWorkspace, tempRootMaker } from '../../unit/helpers/workspace';
import { PYTHON_FILES, PYTHON_RIGHT, PYTHON_WRONG, candidatesRequest } from './sharedRoundsRequests';

/** A fresh XDG_CACHE_HOME, removed once the file's tests end. */
const cacheHome = tempRootMaker();

/** Two requests on `ws` with the same candidates, sharing the XDG_CACHE_HOME `cacheHome`: each one's log. */
async function twoRequests(ws: string, file: string, candidates: readonly string[], test: string | undefined, cacheHome: string, extra: readonly string[] = []): Promise<Array<Awaited<ReturnType<typeof candidatesRequest>>>> {
  const first = await candidatesRequest(ws, file, candidates, test, 2, extra, { XDG_CACHE_HOME: cacheHome });
  const second = await candidatesRequest(ws, file, candidates, test, 2, extra, { XDG_CACHE_HOME: cacheHome });
  return [first, second];
}

/** The workspace; its kept state's folder, under `cacheHome`, must look empty to every run (it is hidden). */
const pythonFiles = (cacheHome: string): Record<string, string> => ({
  ...PYTHON_FILES,
  'conftest.py': ['import os, time', "os.environ['VF_TEST_START'] = repr(time.time())", ''].join('\n'),
  'tests/test_warm.py': [
    'import glob, importlib.util, os',
    'import helper',
    "START = float(os.environ['VF_TEST_START'])",
    'def test_made_before_the_run():',
    '    assert os.stat(importlib.util.cache_from_source(helper.__file__)).st_mtime < START, "helper.py was compiled by this run"',
    "    rewritten = glob.glob(os.path.join(os.path.dirname(__file__), '__pycache__', 'test_warm.*-pytest-*.pyc'))",
    '    assert rewritten and all(os.stat(p).st_mtime < START for p in rewritten), "this module was rewritten by this run"',
    `    assert os.listdir(${JSON.stringify(join(cacheHome, 'verified-fix', 'warm'))}) == [], "the kept state shows"`,
    '',
  ].join('\n'),
});

/** The right fix, which also writes bytecode for helper.py that Python would take for it: `double` triples. */
const PY_PLANT = [
  '    import importlib.util, marshal, os',
  "    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'helper.py')",
  '    stats = os.stat(source)',
  '    cache = importlib.util.cache_from_source(source)',
  '    os.makedirs(os.path.dirname(cache), exist_ok=True)',
  "    header = importlib.util.MAGIC_NUMBER + bytes(4) + int(stats.st_mtime).to_bytes(4, 'little') + (stats.st_size & 0xFFFFFFFF).to_bytes(4, 'little')",
  "    with open(cache, 'wb') as out: out.write(header + marshal.dumps(compile('def double(x):\\n    return 3 * x\\n', source, 'exec')))",
  '    if x < lo: return lo',
  '    if x > hi: return hi',
].join('\n');

const pytest = spawnSync('python3', ['-m', 'pytest', '--version'], { encoding: 'utf8' }).status === 0;
describe("python's bytecode kept for the next request (pytest)", { skip: pytest ? false : 'SKIPPED: python3 -m pytest is not installed' }, () => {
  for (const sandbox of ['bwrap', 'unshare'] as const) {
    it(`starts the next request's baseline from what the last one's compiled, its read-only test folders included (${sandbox})`, async () => {
      const home = cacheHome();
      const ws = makeWorkspace(pythonFiles(home));
      const [first, second] = await twoRequests(ws, 'src/calc.py', [PYTHON_RIGHT, PYTHON_WRONG], 'python3 -m pytest -q', home, ['--sandbox', sandbox]);
      assert.match(first.stderr, /per-test results \(pytest\): 2 of 3 tests fail on the unmodified code/, first.stderr);
      assert.deepEqual(first.statuses, ['pass', 'fail'], first.stderr);
      assert.match(second.stderr, /python's bytecode: the baseline, and a run beside it, read what the last request's baseline on this workspace compiled where the sources are unchanged \(\d+ files?, kept in /, second.stderr);
      assert.match(second.stderr, /per-test results \(pytest\): 1 of 3 tests fail on the unmodified code: tests\/test_calc\.py::test_caps_at_hi$/m, second.stderr);
      assert.deepEqual(second.statuses, ['pass', 'fail'], second.stderr);
      assert.equal(second.candidates[0].verified, true, second.stderr);
    });
  }

  it("keeps nothing a candidate's run wrote: bytecode it planted for another module, header and all, never reaches the next request", async () => {
    const home = cacheHome();
    const ws = makeWorkspace({ ...pythonFiles(home), 'tests/test_helper.py': 'import helper\ndef test_double(): assert helper.double(2) == 4\n' });
    const [first, second] = await twoRequests(ws, 'src/calc.py', [PY_PLANT, PYTHON_RIGHT], 'python3 -m pytest -q', home, ['--sandbox', 'bwrap']);
    assert.match(first.stderr, /per-test results \(pytest\): 2 of 4 tests fail on the unmodified code/, first.stderr);
    assert.match(second.stderr, /per-test results \(pytest\): 1 of 4 tests fail on the unmodified code: tests\/test_calc\.py::test_caps_at_hi$/m, second.stderr);
    assert.equal(second.candidates[1].verified, true, second.stderr);
  });
});

const JEST_FILES: Record<string, string> = {
  'src/calc.js': ['function clamp(x, lo, hi) {', '  if (x < lo) return lo;', '  if (x > hi) return lo;', '  return x;', '}', 'module.exports = { clamp };', ''].join('\n'),
  'test/clamp.test.js': "const { clamp } = require('../src/calc');\ntest('keeps a value inside', () => expect(clamp(5, 0, 10)).toBe(5));\ntest('caps at hi', () => expect(clamp(15, 0, 10)).toBe(10));\n",
  'test/warm.test.js': "test('transformed before the run', () => expect(TRANSFORMED_AT).toBeLessThan(Date.now() - process.uptime() * 1000));\n",
  // Jest calls a transformer only for a file its cache lacks: the time it ran is in the code it returned.
  'stamp.js': "module.exports = { process(src, filename) { return { code: (filename.endsWith('warm.test.js') ? 'const TRANSFORMED_AT = ' + Date.now() + ';\\n' : '') + src }; } };\n",
  'package.json': JSON.stringify({ name: 'jest-warm-demo', private: true, scripts: { test: 'jest' }, jest: { testEnvironment: 'node', transform: { '\\.js$': '<rootDir>/stamp.js' } } }),
};

const JS_RIGHT = '  if (x < lo) return lo;\n  if (x > hi) return hi;';
const JS_WRONG = '  if (x < lo) return lo;\n  if (x > hi) return x;';

describe("jest's cache kept for the next request (jest 29)", () => {
  it("starts the next request's baseline from the cache the last one's left", async () => {
    const ws = makeWorkspace(JEST_FILES);
    symlinkSync(join(process.cwd(), 'node_modules'), join(ws, 'node_modules'));
    const [first, second] = await twoRequests(ws, 'src/calc.js', [JS_RIGHT, JS_WRONG], undefined, cacheHome());
    assert.match(first.stderr, /per-test results \(jest\): 2 of 3 tests fail on the unmodified code/, first.stderr);
    assert.deepEqual(first.statuses, ['pass', 'fail'], first.stderr);
    assert.match(second.stderr, /jest's cache: the baseline, and a run beside it, start from the one the last request's baseline on this workspace left/, second.stderr);
    assert.match(second.stderr, /per-test results \(jest\): 1 of 3 tests fail on the unmodified code: test\/clamp\.test\.js > caps at hi$/m, second.stderr);
    assert.deepEqual(second.statuses, ['pass', 'fail'], second.stderr);
    assert.equal(second.candidates[0].verified, true, second.stderr);
  });

  it('keeps nothing where each run has a copy of its own, whose path jest keys its cache by, new in every request', async () => {
    const ws = makeWorkspace(Object.fromEntries(Object.entries(JEST_FILES).filter(([name]) => name !== 'test/warm.test.js')));
    symlinkSync(join(process.cwd(), 'node_modules'), join(ws, 'node_modules'));
    const home = cacheHome();
    const [first, second] = await twoRequests(ws, 'src/calc.js', [JS_RIGHT, JS_WRONG], undefined, home, ['--isolation', 'copy']);
    assert.match(first.stderr, /isolation: copy/, first.stderr);
    assert.doesNotMatch(second.stderr, /start from the one the last request's baseline on this workspace left/, second.stderr);
    assert.equal(existsSync(join(home, 'verified-fix', 'warm')), false);
    assert.deepEqual(second.statuses, ['pass', 'fail'], second.stderr);
  });
});
