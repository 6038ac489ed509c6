// The mutation generator off the engine's thread: a worker that parses a selection, finds its edits and checks their
// syntax when asked (prepare), then orders them once the hints are in (generate). Bundled as dist/parseWorker.js by
// esbuild.js; parseClient.ts starts it and talks to it.
import { parentPort } from 'node:worker_threads';
import { generateMutants, prepareSelection } from './generator';
import type { PreparedSelection } from './generator';
import type { ParseAnswer, ParseAsk } from './parseClient';

const parses = new Map<number, Promise<PreparedSelection | undefined>>();

async function answer(ask: ParseAsk): Promise<ParseAnswer | undefined> {
  if (ask.kind === 'prepare') {
    const prepared = prepareSelection(ask.input);
    // Its failure is answered to the generate that takes it; one never taken is released unread.
    prepared.catch(() => undefined);
    parses.set(ask.id, prepared);
    return undefined;
  }
  const prepared = parses.get(ask.id);
  parses.delete(ask.id);
  if (ask.kind === 'release') {
    void prepared?.then((unused) => unused?.release(), () => undefined);
    return undefined;
  }
  try {
    const { mutants, stats } = await generateMutants(ask.input, prepared);
    return { id: ask.id, mutants: mutants.map(({ text, label }) => ({ text, label })), stats };
  } catch (error) {
    return { id: ask.id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (ask: ParseAsk) => {
  void answer(ask).then((reply) => reply && parentPort?.postMessage(reply));
});
