// The `mutation` provider end to end in-process: baseline hints, samples, logging, stats; and failure-line parsing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UserError } from '../../src/core/base/errors';
import type { Logger } from '../../src/core/base/logger';
import { failureLines } from '../../src/core/mutation/failureLines';
import type { MutationStats } from '../../src/core/mutation/generator';
import { createMutationProvider } from '../../src/core/providers/mutationProvider';
import type { BaselineReport, ProviderRequest, ProviderSample } from '../../src/core/contract/provider';

const file = [
  'function add(a, b) {',
  '  return a - b;',
  '}',
  'function lessThan(a, b) {',
  '  return a <= b;',
  '}',
  'module.exports = { add, lessThan };',
  '',
].join('\n');

function recordingLogger(lines: string[]): Logger {
  return { trace() {}, info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(String(m)) };
}

function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    languageId: 'javascript',
    relativePath: 'src/math.js',
    fileText: file,
    start: 0,
    end: file.indexOf('module.exports'),
    samples: 5,
    baseline: Promise.resolve(undefined),
    signal: new AbortController().signal,
    logger: recordingLogger([]),
    ...overrides,
  };
}

async function collect(samples: AsyncIterable<ProviderSample>): Promise<ProviderSample[]> {
  const out: ProviderSample[] = [];
  for await (const s of samples) out.push(s);
  return out;
}

describe('mutation provider', () => {
  it('yields the first `samples` candidates with labels, logs and exposes the counts', async () => {
    const logs: string[] = [];
    let reported: MutationStats | undefined;
    const provider = createMutationProvider({ onStats: (s) => (reported = s) });
    const samples = await collect(provider.generate(request({ samples: 4, logger: recordingLogger(logs) })));
    assert.equal(provider.name, 'mutation');
    assert.equal(samples.length, 4);
    for (const s of samples) {
      assert.equal(s.kind, 'candidate');
      if (s.kind === 'candidate') assert.match(s.label ?? '', / on line \d+$/);
    }
    const stats = provider.lastStats();
    assert.ok(stats && stats.candidates > 4);
    assert.equal(reported, stats);
    assert.ok(logs.some((l) => l.includes(`${stats.candidates} candidates`) && l.includes('dropped as unparsable')), logs.join('\n'));
  });

  it('puts the lines of a failing baseline stack trace first', async () => {
    const output = [
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '    at lessThan (/tmp/vf-copy-1/src/math.js:5:10)',
      '    at TestContext.<anonymous> (/tmp/vf-copy-1/test/math.test.js:9:3)',
    ].join('\n');
    const baseline: BaselineReport = { status: 'fail', output };
    const provider = createMutationProvider();
    const samples = await collect(provider.generate(request({ baseline: Promise.resolve(baseline), samples: 3 })));
    const labels = samples.map((s) => (s.kind === 'candidate' ? s.label : ''));
    assert.ok(labels.every((l) => l?.endsWith('on line 5')), labels.join('\n'));
    assert.equal(samples[0].kind === 'candidate' && samples[0].text.includes('a < b'), true);
  });

  it('ignores the hints of a passing baseline', async () => {
    const baseline: BaselineReport = { status: 'pass', output: 'at x (/w/src/math.js:5:1)' };
    const hinted = await collect(createMutationProvider().generate(request({ baseline: Promise.resolve(baseline) })));
    const plain = await collect(createMutationProvider().generate(request()));
    assert.deepEqual(hinted, plain);
  });

  it('puts the lines the fault localisation ranks first, and says what the ranking rests on', async () => {
    const logs: string[] = [];
    const baseline: BaselineReport = { status: 'fail', output: '    at add (/tmp/vf-copy-1/src/math.js:2:10)' };
    let asked = 0;
    const localise = async () => {
      asked++;
      return { lines: [5], evidence: 'coverage of 1 failing and 3 passing tests' };
    };
    const samples = await collect(createMutationProvider().generate(request({ baseline: Promise.resolve(baseline), localise, samples: 2, logger: recordingLogger(logs) })));
    assert.equal(asked, 1);
    assert.ok(samples.every((s) => s.kind === 'candidate' && s.label?.endsWith('on line 5')), JSON.stringify(samples));
    assert.ok(logs.some((l) => l.includes('; coverage of 1 failing and 3 passing tests; top lines 5; trying the first 2')), logs.join('\n'));
  });

  it('falls back to the failure output\'s lines when the localisation has nothing, and does not ask it on a passing baseline', async () => {
    const output = '    at lessThan (/tmp/vf-copy-1/src/math.js:5:10)';
    const nothing = async () => undefined;
    const samples = await collect(createMutationProvider().generate(request({ baseline: Promise.resolve({ status: 'fail', output }), localise: nothing, samples: 2 })));
    assert.ok(samples.every((s) => s.kind === 'candidate' && s.label?.endsWith('on line 5')), JSON.stringify(samples));
    let asked = false;
    const passing: BaselineReport = { status: 'pass', output };
    await collect(createMutationProvider().generate(request({ baseline: Promise.resolve(passing), localise: async () => ((asked = true), undefined) })));
    assert.equal(asked, false);
  });

  it('stops without waiting for the baseline when the request is cancelled', async () => {
    const controller = new AbortController();
    const never = new Promise<BaselineReport | undefined>(() => {});
    const pending = collect(createMutationProvider().generate(request({ baseline: never, signal: controller.signal })));
    controller.abort();
    assert.deepEqual(await pending, []);
  });

  it('sends the mutants of a one-line selection without waiting for the baseline, in the order a hinted baseline would give', async () => {
    const start = file.indexOf('return a <= b');
    const line = { start, end: file.indexOf(';', start) + 1, samples: 6 };
    // A baseline that records whether the provider waits for it.
    let waited = false;
    const watched = Promise.resolve(undefined);
    const then = watched.then.bind(watched);
    watched.then = ((...args: Parameters<typeof then>) => ((waited = true), then(...args))) as typeof watched.then;
    const early = await collect(createMutationProvider().generate(request({ ...line, baseline: watched })));
    assert.equal(waited, false);
    assert.equal(early.length, 6);
    for (const at of ['5:10', '2:10']) {
      const hinted: BaselineReport = { status: 'fail', output: `    at f (/tmp/vf-copy-1/src/math.js:${at})` };
      const localise = async () => ({ lines: [Number(at.split(':')[0])], evidence: 'coverage' });
      assert.deepEqual(await collect(createMutationProvider().generate(request({ ...line, baseline: Promise.resolve(hinted), localise }))), early, `hinted at line ${at}`);
    }
    // Across lines the hints decide the order: the provider waits for the baseline.
    await collect(createMutationProvider().generate(request({ baseline: watched })));
    assert.equal(waited, true);
  });

  it('refuses a language it has no parser for with a UserError', async () => {
    const provider = createMutationProvider();
    await assert.rejects(collect(provider.generate(request({ languageId: 'cobol' }))), (e: unknown) => e instanceof UserError);
    assert.equal(provider.lastStats()?.supported, false);
  });
});

describe('failure lines', () => {
  it('reads node stack traces, file URLs, Python tracebacks, pytest and tsc references to the file', () => {
    const output = [
      '    at add (/tmp/vf-1/src/math.js:12:5)',
      '    at file:///tmp/vf-1/src/math.js:3:7',
      '  File "/tmp/vf-2/src/math.js", line 7, in add',
      'src/math.js:9: in add',
      'src/math.js(21,4): error TS2322',
      '    at other (/tmp/vf-1/src/other.js:40:1)',
      '    at test (/tmp/vf-1/test/src/math.js.test.js:50:1)',
      '    at add (/tmp/vf-1/src/math.js:12:5)',
    ].join('\n');
    assert.deepEqual(failureLines(output, 'src/math.js').sort((a, b) => a - b), [3, 7, 9, 12, 21]);
  });

  it('reads a Python traceback', () => {
    const output = 'Traceback (most recent call last):\n  File "/tmp/x/tests/test_calc.py", line 8, in test_mean\n    self.assertEqual(mean([1, 2]), 1.5)\n  File "/tmp/x/calc.py", line 4, in mean\n    return total / (len(xs) - 1)\nZeroDivisionError: division by zero\n';
    assert.deepEqual(failureLines(output, 'calc.py'), [4]);
  });

  it('finds nothing in output that names other files', () => {
    assert.deepEqual(failureLines('all good\n    at main (/x/index.js:1:1)\n', 'src/math.js'), []);
  });
});
