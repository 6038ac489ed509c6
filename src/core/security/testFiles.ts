// Keeps a candidate from changing the tests (or how they run) to make them pass: which files are tests, fixtures or
// runner configuration, and which of them a run gets read-only. What a run changed is judged in isolation/treeChanges.

/** Folders whose whole content is tests or test data. */
const TEST_FOLDER = /^(tests?|__tests__|spec|specs|__mocks__|__snapshots__|fixtures?|__fixtures__|testdata|test-data|test_data)$/i;
const TEST_FILE = /(^|\/)[^/]*[._-](test|spec)\.[^/]+$|(^|\/)(test|tests|spec)\.[^/]+$|(^|\/)test_[^/]*\.py$|(^|\/)[^/]*_test\.(py|go)$|(^|\/)conftest\.py$/i;
/** Files a runner reads to decide what runs and how: changing or adding one changes the verdict, not the code. */
export const RUNNER_FILE =
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
