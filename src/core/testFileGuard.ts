// Detects a candidate that changes the tests (or the test configuration) to make them pass.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const TEST_FILE = /(^|\/)(tests?|__tests__|spec|specs)\/|(^|\/)[^/]*[._-](test|spec)\.[^/]+$|(^|\/)test_[^/]*\.py$|(^|\/)conftest\.py$/i;
const TEST_CONFIG = /(^|\/)(package\.json|pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|(jest|vitest|vite|mocha|karma|playwright)\.config\.[cm]?[jt]s|\.mocharc\.[a-z]+)$/i;

/** Whether a workspace-relative path holds tests or says how they run. */
export function isTestRelated(rel: string): boolean {
  return TEST_FILE.test(rel) || TEST_CONFIG.test(rel);
}

async function hash(path: string): Promise<string> {
  try {
    return createHash('sha256').update(await readFile(path)).digest('hex');
  } catch {
    return 'missing';
  }
}

export type FileHashes = ReadonlyMap<string, string>;

/** Hashes the test-related files of the list (the target file excluded: the candidate may change it). */
export async function hashTestFiles(root: string, files: readonly string[], target: string): Promise<FileHashes> {
  const related = files.filter((f) => f !== target && isTestRelated(f));
  const hashes = await Promise.all(related.map(async (f) => [f, await hash(join(root, f))] as const));
  return new Map(hashes);
}

/** The test-related files whose content in `copyDir` differs from the original hashes. */
export async function changedTestFiles(copyDir: string, original: FileHashes): Promise<string[]> {
  const changed: string[] = [];
  await Promise.all(
    [...original].map(async ([rel, digest]) => {
      if ((await hash(join(copyDir, rel))) !== digest) changed.push(rel);
    }),
  );
  return changed.sort();
}
