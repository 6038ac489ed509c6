// Builds a bench project in the cache folder once: the pinned release from its registry (integrity checked), its
// runner installed into its own folder, a git repository of the unmodified code; and seeds one bug at a time.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchProject, SeededBug } from './catalog';

/** The folder all bench projects live in (VERIFIED_FIX_CACHE as the runner installs use it), outside this repository. */
export function benchCache(): string {
  return join(process.env.VERIFIED_FIX_CACHE || join(homedir(), '.cache', 'verified-fix'), 'bench-projects');
}

function run(command: string, args: string[], cwd: string): string {
  const child = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${child.status}): ${(child.stderr || child.stdout || '').slice(-600)}`);
  return child.stdout;
}

function onlyFile(dir: string, suffix: string): string {
  const found = readdirSync(dir).filter((f) => f.endsWith(suffix));
  if (found.length !== 1) throw new Error(`expected one ${suffix} in ${dir}, found ${found.join(', ') || 'none'}`);
  return join(dir, found[0]);
}

/** Downloads the pinned release and unpacks it into `dir`; refuses one whose digest differs from the pinned one. */
function unpackRelease(project: BenchProject, dir: string): void {
  const scratch = mkdtempSync(join(tmpdir(), 'vf-bench-fetch-'));
  try {
    const { source } = project;
    if (source.kind === 'npm') {
      run('npm', ['pack', source.spec, '--pack-destination', scratch, '--silent'], scratch);
      const tarball = onlyFile(scratch, '.tgz');
      const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
      if (digest !== source.integrity) throw new Error(`${source.spec}: the registry's tarball has ${digest}, the bench pins ${source.integrity}`);
      run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], dir);
    } else {
      run('python3', ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '-d', scratch, source.spec], scratch);
      const wheel = onlyFile(scratch, '.whl');
      const digest = createHash('sha256').update(readFileSync(wheel)).digest('hex');
      if (digest !== source.sha256) throw new Error(`${source.spec}: the wheel has sha256 ${digest}, the bench pins ${source.sha256}`);
      run('python3', ['-m', 'zipfile', '-e', wheel, dir], dir);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The published package.json with its test script and devDependencies replaced by the bench's pinned ones. */
function rewritePackageJson(project: BenchProject, dir: string): boolean {
  const path = join(dir, 'package.json');
  if (project.source.kind !== 'npm') return false;
  const published = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  // Everything else as published: tests read `bin`, `main` and the like.
  const manifest = { ...published, private: true, scripts: { test: project.test }, devDependencies: project.devDependencies ?? {}, ...project.packageFields };
  const { dependencies } = published;
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  return Object.keys(dependencies ?? {}).length + Object.keys(project.devDependencies ?? {}).length > 0;
}

/** The project's folder, built on first use (minutes: npm installs its runner) and reused after. */
export function prepareProject(project: BenchProject): string {
  const dir = join(benchCache(), project.name);
  const key = JSON.stringify([project.source, project.test, project.devDependencies, project.packageFields, project.remove]);
  const ready = join(dir, '.bench-ready');
  if (existsSync(ready) && readFileSync(ready, 'utf8') === key) return dir;
  console.log(`building ${project.name} (${project.source.spec}) in ${dir}…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  unpackRelease(project, dir);
  for (const path of project.remove ?? []) rmSync(join(dir, path), { force: true });
  if (rewritePackageJson(project, dir)) run('npm', ['install', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], dir);
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n__pycache__/\n.pytest_cache/\n*.dist-info/\n.bench-ready\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=bench@example.invalid', '-c', 'user.name=bench', 'commit', '-qm', `${project.source.spec} as published`);
  writeFileSync(ready, key);
  return dir;
}

/** The command a user runs: `npm test` where the project is an npm package, else its own test command. */
export function userCommand(project: BenchProject): string {
  return project.source.kind === 'npm' ? 'npm test' : project.test;
}

/** Writes the bug into the file; returns its 1-based line and a function that puts the original back. */
export function seedBug(dir: string, bug: SeededBug): { line: number; restore: () => void } {
  const path = join(dir, bug.file);
  const original = readFileSync(path, 'utf8');
  const at = original.indexOf(bug.from);
  if (at < 0 || original.indexOf(bug.from, at + 1) >= 0) throw new Error(`${bug.file}: "${bug.from}" must occur exactly once`);
  writeFileSync(path, original.slice(0, at) + bug.to + original.slice(at + bug.from.length));
  // The line the token changes on (a `from` spanning lines selects its first line, where the changed token is).
  const changed = [...bug.from].findIndex((c, i) => c !== bug.to[i]);
  const line = original.slice(0, at + Math.max(0, changed)).split('\n').length;
  return { line, restore: () => writeFileSync(path, original) };
}
