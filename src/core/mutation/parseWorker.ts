// The mutation generator off the engine's thread: a worker that parses a selection, finds its edits and checks their
// syntax when asked (prepare), then ranks them once the hints are in (generate). Bundled as dist/parseWorker.js by
// esbuild.js; parseClient.ts starts it and talks to it.
import { parentPort } from 'node:worker_threads';
import { generateMutants, prepareSelection } from './generator';
import type { PreparedSelection } from './generator';
import type { ParseAnswer, ParseAsk } from './parseClient';

/** A prepared selection, with when its work began and ended (for the time the answer reports). */
interface Started {
  readonly prepared: Promise<PreparedSelection | undefined>;
  readonly began: number;
  ended?: number;
}

const parses = new Map<number, Started>();

async function answer(ask: ParseAsk): Promise<ParseAnswer | undefined> {
  if (ask.kind === 'prepare') {
    const started: Started = { prepared: prepareSelection(ask.input), began: performance.now() };
    // Its failure is answered to the generate that takes it; one never taken is released unread.
    started.prepared.then(() => (started.ended = performance.now()), () => undefined);
    parses.set(ask.id, started);
    return undefined;
  }
  const started = parses.get(ask.id);
  parses.delete(ask.id);
  if (ask.kind === 'release') {
    void started?.prepared.then((unused) => unused?.release(), () => undefined);
    return undefined;
  }
  const asked = performance.now();
  try {
    const { mutants, stats } = await generateMutants(ask.input, started?.prepared);
    // The time it worked: the parse and the checks, then the ranking, not the wait for the hints between them.
    const done = performance.now();
    const durationMs = !started ? stats.durationMs : started.ended !== undefined && started.ended <= asked ? started.ended - started.began + (done - asked) : done - started.began;
    return { id: ask.id, mutants: mutants.map(({ text, label }) => ({ text, label })), stats: { ...stats, durationMs } };
  } catch (error) {
    return { id: ask.id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (ask: ParseAsk) => {
  void answer(ask).then((reply) => reply && parentPort?.postMessage(reply));
});
