// The `file` provider: candidates from a JSON file holding an array of replacement strings.
import { UserError } from '../base/errors';
import { readUserText } from '../base/userFiles';
import type { CandidateProvider, ProviderSample } from '../contract/provider';

/** Reads and checks the candidates file up front, so a bad file is reported before anything runs. */
export async function readCandidatesFile(path: string): Promise<string[]> {
  const text = await readUserText(path, path, `${path}: no such candidates file`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${path}: not valid JSON (${(error as Error).message}); expected an array of replacement strings`);
  }
  if (!Array.isArray(value)) throw new UserError(`${path}: expected a JSON array of replacement strings`);
  if (value.length === 0) throw new UserError(`${path}: the candidates array is empty`);
  const bad = value.findIndex((v) => typeof v !== 'string');
  if (bad >= 0) throw new UserError(`${path}: element ${bad} is not a string (every candidate is the replacement text for the lines)`);
  return value as string[];
}

/** Yields the given replacement texts in order (at most `samples` of them). */
export function createFileProvider(candidates: readonly string[]): CandidateProvider {
  return {
    name: 'file',
    async *generate(request): AsyncGenerator<ProviderSample> {
      for (const text of candidates.slice(0, request.samples)) {
        if (request.signal.aborted) return;
        yield { kind: 'candidate', text };
      }
    },
  };
}
