// Keeps a candidate from changing the tests (or how they run) to make them pass: what the run may not write, and
// what it must not have written or created when it ends.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders whose whole content is tests or test data. */
const TEST_FOLDER = /^(tests?|__tests__|spec|specs|__mocks__|__snapshots__|fixtures?|__fixtures__|testdata|test-data|test_data)$/i;
const TEST_FILE = /(^|\/)[^/]*[._-](test|spec)\.[^/]+$|(^|\/)(test|tests|spec)\.[^/]+$|(^|\/)test_[^/]*\.py$|(^|\/)[^/]*_test\.(py|go)$|(^|\/)conftest\.py$/i;
/** Files a runner reads to decide what runs and how: changing or adding one changes the verdict, not the code. */
const RUNNER_FILE =
  /(^|\/)(package\.json|pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|conftest\.py|sitecustomize\.py|usercustomize\.py|[^/]+\.pth|(jest|vitest|vite|mocha|karma|playwright|ava|babel)\.config\.[cm]?[jt]s(on)?|\.mocharc(\.[a-z]+)?|\.babelrc(\.[a-z]+)?|\.noderc|\.nycrc(\.[a-z]+)?|\.taprc|\.npmrc|Cargo\.toml|go\.mod|\.cargo\/config(\.toml)?)$/i;

/** Whether a workspace-relative path holds tests, test data, or says how the tests run. */
export function isTestRelated(rel: string): boolean {
  return rel.split('/').slice(0, -1).some((part) => TEST_FOLDER.test(part)) || TEST_FILE.test(rel) || RUNNER_FILE.test(rel);
}

/**
 * The paths (files, or whole test folders where nothing else lives in them) a run must get read-only: every
 * test-related file of the listing except the target and the folders that hold it, so the candidate's own file stays
 * writable. Folders keep the list short: one mount each, instead of one per file.
 */
export function readOnlyTestPaths(files: readonly string[], target: string): string[] {
  const paths = new Set<string>();
  for (const file of files) {
    if (file === target || !isTestRelated(file)) continue;
    const parts = file.split('/');
    const folderIndex = parts.slice(0, -1).findIndex((part) => TEST_FOLDER.test(part));
    const folder = folderIndex >= 0 ? parts.slice(0, folderIndex + 1).join('/') : undefined;
    paths.add(folder !== undefined && !target.startsWith(`${folder}/`) ? folder : file);
  }
  // A folder covers what is inside it.
  const all = [...paths].sort();
  return all.filter((path) => !all.some((other) => other !== path && path.startsWith(`${other}/`)));
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

/** Folders modules are imported from by name: a file created under one is a planted module. */
const MODULE_FOLDER = /(^|\/)(node_modules|site-packages|dist-packages)\//;

/** Folders tools fill with caches as they run, which change nothing about what loads. */
const DEPENDENCY_CACHES = new Set(['.vite', '.vite-temp', '.cache', '.vitest', '.pytest_cache', '__pycache__']);

/**
 * Files a runner would load that the run created: a new `conftest.py`, `sitecustomize.py`, `*.pth` or runner
 * configuration anywhere in the copy, or a new package in a linked dependency folder (a module planted for tests to
 * import; dot-entries such as `.vite` or `.cache` are tools' caches and cannot be imported by name). `listed` holds the copy's files as made; linked folders are checked one level deep (their content is the
 * original's, read-only).
 */
export async function newRunnerFiles(copyDir: string, listed: ReadonlySet<string>, linkedFolders: readonly string[], linkedEntries: ReadonlyMap<string, ReadonlySet<string>>): Promise<string[]> {
  const found: string[] = [];
  const linked = new Set(linkedFolders);
  const visit = async (rel: string): Promise<void> => {
    const entries = await readdir(join(copyDir, rel), { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map(async (entry) => {
        const path = rel ? `${rel}/${entry.name}` : entry.name;
        if (linked.has(path)) {
          const before = linkedEntries.get(path);
          const now = await readdir(join(copyDir, path)).catch(() => [] as string[]);
          for (const name of now) if (!before?.has(name) && !name.startsWith('.') && name !== '__pycache__') found.push(`${path}/${name}`);
        } else if (entry.isDirectory() && !DEPENDENCY_CACHES.has(entry.name) && entry.name !== '.git') {
          await visit(path);
        } else if (!entry.isDirectory() && !listed.has(path) && (RUNNER_FILE.test(path) || MODULE_FOLDER.test(path))) {
          found.push(path);
        }
      }),
    );
  };
  await visit('');
  return found.sort();
}
