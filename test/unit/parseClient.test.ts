// The mutation generator on its worker thread (dist/parseWorker.js, built with the tests): the same mutants, in the
// same order, with the same counts, as on the engine's thread; and this thread where the worker is absent.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { generateMutants } from '../../src/core/mutation/generator';
import type { SelectionInput } from '../../src/core/mutation/generator';
import { parseOffThread, startParse } from '../../src/core/mutation/parseClient';
import { createMutationProvider } from '../../src/core/providers/mutationProvider';
import type { ProviderRequest, ProviderSample } from '../../src/core/contract/provider';
import { silentLogger } from '../../src/core/base/logger';
import type { Logger } from '../../src/core/base/logger';
import { repoRoot } from './helpers/paths';

const WORKER = join(repoRoot, 'dist', 'parseWorker.js');

const js = [
  'function clamp(value, low, high) {',
  '  if (value < low) return low;',
  '  if (value > high) return high;',
  '  return value;',
  '}',
  'module.exports = { clamp };',
  '',
].join('\n');
const py = ['def total(items):', '    result = 0', '    for item in items:', '        result += item', '    return result', ''].join('\n');

const lineOf = (text: string, line: number) => {
  const lines = text.split('\n');
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  return { start, end: start + lines[line - 1].length };
};

async function both(input: SelectionInput, hintLines: number[]) {
  const parse = startParse(input, WORKER);
  assert.equal(parse.offThread, true, 'the worker bundle is built with the tests');
  const remote = await parse.mutants(hintLines);
  const local = await generateMutants({ ...input, hintLines });
  return { remote, local };
}

describe('the mutation parse on a worker thread', () => {
  for (const [name, input, hints] of [
    ['one line of JavaScript', { languageId: 'javascript', fileText: js, ...lineOf(js, 2), limit: 1000 }, []],
    ['a JavaScript function, hinted', { languageId: 'javascript', fileText: js, start: 0, end: js.length, limit: 1000 }, [3, 2]],
    ['a JavaScript function, a limit of 4', { languageId: 'javascript', fileText: js, start: 0, end: js.length, limit: 4 }, []],
    ['a Python function', { languageId: 'python', fileText: py, start: 0, end: py.length, limit: 1000 }, [4]],
  ] as const) {
    it(`gives what this thread gives: ${name}`, async () => {
      const { remote, local } = await both(input, [...hints]);
      assert.ok(local.mutants.length > 0);
      assert.deepEqual(remote.mutants, local.mutants.map(({ text, label }) => ({ text, label })));
      const counts = ({ durationMs, ...rest }: typeof local.stats) => (assert.ok(durationMs >= 0), rest);
      assert.deepEqual(counts(remote.stats), counts(local.stats));
    });
  }

  it('says a language has no parser, as this thread does', async () => {
    const { remote, local } = await both({ languageId: 'ruby', fileText: 'x = 1\n', start: 0, end: 5 }, []);
    assert.equal(remote.stats.supported, false);
    assert.deepEqual(remote.mutants, []);
    assert.equal(local.stats.supported, false);
  });

  it('serves the next selection after one that was released unasked', async () => {
    startParse({ languageId: 'javascript', fileText: js, start: 0, end: js.length }, WORKER).release();
    const { remote, local } = await both({ languageId: 'javascript', fileText: js, ...lineOf(js, 3) }, []);
    assert.equal(remote.mutants.length, local.mutants.length);
  });

  it('starts nothing off the thread where the worker bundle is absent', () => {
    assert.equal(parseOffThread({ languageId: 'javascript', fileText: js, ...lineOf(js, 2) }, join(repoRoot, 'no-such-worker.js')), undefined);
  });

  it('runs on this thread where the worker bundle is absent', async () => {
    const parse = startParse({ languageId: 'javascript', fileText: js, ...lineOf(js, 2) }, join(repoRoot, 'no-such-worker.js'));
    assert.equal(parse.offThread, false);
    const local = await generateMutants({ languageId: 'javascript', fileText: js, ...lineOf(js, 2), hintLines: [] });
    assert.deepEqual((await parse.mutants([])).mutants, local.mutants);
  });
});

const recording = (lines: string[]): Logger => ({ ...silentLogger, info: (line) => lines.push(line) });

describe("the mutation provider's early parse", () => {
  const selection = { languageId: 'javascript', relativePath: 'clamp.js', fileText: js, ...lineOf(js, 2), samples: 5 };
  const request = (): ProviderRequest => ({ ...selection, baseline: Promise.resolve(undefined), signal: new AbortController().signal, logger: silentLogger });
  const texts = async (samples: AsyncIterable<ProviderSample>) => {
    const out: string[] = [];
    for await (const sample of samples) if (sample.kind === 'candidate') out.push(sample.text);
    return out;
  };

  it('is taken by generate on the same selection, and gives the candidates a provider without it gives', async () => {
    const logged: string[] = [];
    const early = createMutationProvider({ parseWorker: WORKER });
    const work = early.prepare?.(selection);
    assert.ok(work, 'started on the worker');
    const got = await texts(early.generate({ ...request(), logger: recording(logged) }));
    work.release();
    assert.match(logged.join('\n'), /parsed on a worker thread from the request's start/);
    assert.deepEqual(got, await texts(createMutationProvider().generate(request())));
  });

  it('is not taken for another selection, which parses on its own', async () => {
    const logged: string[] = [];
    const provider = createMutationProvider({ parseWorker: WORKER });
    const work = provider.prepare?.(selection);
    const other = { ...request(), ...lineOf(js, 3), logger: recording(logged) };
    const got = await texts(provider.generate(other));
    work?.release();
    assert.ok(got.length > 0);
    assert.match(logged.join('\n'), /parsed on a worker thread;/);
    assert.doesNotMatch(logged.join('\n'), /from the request's start/);
  });

  // Workers that fail as a broken bundle or a crash would: the request still gets its candidates, parsed here.
  const broken = mkdtempSync(join(tmpdir(), 'vf-parse-worker-'));
  after(() => rmSync(broken, { recursive: true, force: true }));
  for (const [name, source] of [
    ['exits at its first message', "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n"],
    ['throws as it loads', "throw new Error('a broken bundle');\n"],
  ] as const) {
    it(`falls back to this thread when the worker ${name}, after the early parse was posted to it`, async () => {
      const file = join(broken, `${name.replace(/\W+/g, '-')}.js`);
      writeFileSync(file, source);
      const provider = createMutationProvider({ parseWorker: file });
      const work = provider.prepare?.(selection);
      assert.ok(work, 'the worker was made');
      // Until the worker is known to have failed: the early parse then asks a worker that is gone.
      for (let probe = parseOffThread(selection, file); probe; probe = parseOffThread(selection, file)) {
        probe.release();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const got = await texts(provider.generate(request()));
      work.release();
      assert.deepEqual(got, await texts(createMutationProvider().generate(request())));
      assert.ok(got.length > 0);
    });
  }

  it('starts nothing early where the worker is absent: there the parse would hold the engine back', () => {
    assert.equal(createMutationProvider({ parseWorker: join(repoRoot, 'no-such-worker.js') }).prepare?.(selection), undefined);
  });
});
