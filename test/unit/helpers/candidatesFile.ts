// A --candidates file for CLI e2e tests, written next to the workspace (outside it: the workspace stays as made).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `candidates` as JSON beside `ws`, records the file in `made` for removal, and returns its path. */
export function candidatesFile(ws: string, candidates: readonly string[], made: string[], tag = 'candidates'): string {
  const list = join(ws, '..', `${ws.split('/').pop()}-${tag}.json`);
  writeFileSync(list, JSON.stringify(candidates));
  made.push(list);
  return list;
}
