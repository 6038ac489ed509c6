// Real temp workspaces for engine tests, and a byte-level fingerprint of a folder tree.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';

/**
 * `dir`/node_modules as a folder of links to each entry of `installed` (the shape the engine gives its copies), so
 * that what a runner writes there (vitest's results cache in node_modules/.vite, vite's bundled config in
 * node_modules/.vite-temp) stays in `dir`.
 */
export function linkModuleEntries(installed: string, dir: string): void {
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(installed)) if (name !== '.vite' && name !== '.vite-temp') symlinkSync(join(installed, name), join(dir, 'node_modules', name));
}

/** Writes `files` (relative path → content) into a new temp folder; `git: true` makes it a committed repo. */
export function makeWorkspace(files: Record<string, string>, options: { git?: boolean } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'vf-ws-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  if (options.git) {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-qm', 'init');
  }
  return root;
}

/** Every file, link and folder under `root` with its content hash: equal fingerprints mean byte-identical trees. */
export function fingerprint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string) => {
    const full = join(root, rel);
    const stats = lstatSync(full);
    if (stats.isSymbolicLink()) out[rel] = `link:${readlinkSync(full)}`;
    else if (stats.isDirectory()) {
      out[rel || '.'] = `dir:${(stats.mode & 0o777).toString(8)}`;
      for (const name of readdirSync(full).sort()) visit(rel ? `${rel}/${name}` : name);
    } else out[rel] = `file:${(stats.mode & 0o777).toString(8)}:${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
  };
  visit('');
  return out;
}

/** A fresh temp root for copies, so a test can check that nothing is left in it. */
export function makeTempRoot(): string {
  return mkdtempSync(join(tmpdir(), 'vf-root-'));
}

export function remove(...paths: string[]): void {
  for (const p of paths) rmSync(p, { recursive: true, force: true });
}

/** A `makeWorkspace` for one test file: every workspace it makes is removed once that file's tests end. */
export function workspaceMaker(): (files: Record<string, string>) => string {
  const made: string[] = [];
  after(() => remove(...made));
  return (files) => {
    const dir = makeWorkspace(files);
    made.push(dir);
    return dir;
  };
}

/** A `makeTempRoot` for one test file: every folder it makes is removed once that file's tests end. */
export function tempRootMaker(): () => string {
  const made: string[] = [];
  after(() => remove(...made));
  return () => {
    const dir = makeTempRoot();
    made.push(dir);
    return dir;
  };
}

/** A package.json of a package named `demo` with these scripts (and any other fields). */
export const packageJsonText = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'demo', version: '1.0.0', scripts, ...extra });
