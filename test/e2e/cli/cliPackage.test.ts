// The CLI as a pipeline installs it: `npm pack` on a fresh copy of the repo, `npm install -g` of the tarball, then runs.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CliResult } from '../../unit/helpers/cli';
import { repoRoot } from '../../unit/helpers/paths';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const scratch = mkdtempSync(join(tmpdir(), 'vf-pack-'));
const tempRoot = makeTempRoot();
after(() => remove(scratch, tempRoot));

/** npm without the settings of an `npm run` this test may run under, and no network. */
function npmEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== 'NODE_TEST_CONTEXT'));
  return { ...env, npm_config_update_notifier: 'false', npm_config_offline: 'true', npm_config_cache: join(scratch, 'npm-cache') };
}

function run(file: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: options.cwd, env: options.env ?? npmEnv(), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : error ? 99 : 0;
      resolve({ exitCode: code, stdout, stderr });
    });
  });
}

/**
 * A fresh clone's files (tracked and new, not ignored: so no dist/) with the repo's node_modules linked in. Packing a
 * copy proves `prepack` builds first, and leaves the repo's dist/ alone while other tests run it.
 */
function freshClone(): string {
  const clone = join(scratch, 'clone');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const rel of files) {
    const from = join(repoRoot, rel);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(clone, rel)), { recursive: true });
    copyFileSync(from, join(clone, rel));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'), 'dir');
  return clone;
}

interface PackedFile {
  readonly path: string;
}

describe('the npm package', () => {
  let packed: { filename: string; entryCount: number; size: number; files: PackedFile[] };
  let bin: string;

  before(async () => {
    const clone = freshClone();
    assert.ok(!existsSync(join(clone, 'dist')), 'the copy starts without a build');
    const packDir = join(scratch, 'packs');
    mkdirSync(packDir);
    const pack = await run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: clone });
    assert.equal(pack.exitCode, 0, pack.stderr);
    packed = (JSON.parse(pack.stdout) as Array<typeof packed>)[0];
    const prefix = join(scratch, 'prefix');
    const install = await run('npm', ['install', '-g', '--prefix', prefix, join(packDir, packed.filename), '--offline', '--no-audit', '--no-fund']);
    assert.equal(install.exitCode, 0, install.stderr);
    bin = join(prefix, 'bin', 'verified-fix');
  });

  it('packs only what runs: the CLI bundle, its parse worker and its grammars, no sources, tests or source maps', () => {
    const paths = packed.files.map((f) => f.path).sort();
    assert.equal(packed.filename, `verified-fix-${version}.tgz`);
    assert.ok(paths.includes('dist/cli.js'));
    assert.ok(paths.includes('dist/parseWorker.js'), "the mutation generator's worker thread");
    for (const g of ['tree-sitter', 'tree-sitter-javascript', 'tree-sitter-typescript', 'tree-sitter-tsx', 'tree-sitter-python', 'tree-sitter-java', 'tree-sitter-go']) {
      assert.ok(paths.includes(`dist/grammars/${g}.wasm`), `${g}.wasm is missing`);
    }
    const extra = paths.filter((p) => !p.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(p));
    assert.deepEqual(extra, []);
    assert.deepEqual(paths.filter((p) => /\.map$|\.ts$|^dist\/extension\.js$/.test(p)), []);
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies?: object };
    assert.equal(manifest.dependencies, undefined, 'everything the CLI runs is bundled, so installing fetches nothing');
  });

  it('runs --version and --help from the installed bin', async () => {
    const v = await run(bin, ['--version']);
    assert.equal(v.exitCode, 0, v.stderr);
    assert.equal(v.stdout.trim(), version);
    const help = await run(bin, ['--help']);
    assert.equal(help.exitCode, 0, help.stderr);
    assert.match(help.stdout, /^usage: verified-fix <command>/);
    assert.match(help.stdout, /exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 .*\n {2}3 /);
    assert.ok(help.stdout.split('\n').every((line) => line.length <= 100), 'no line wider than 100 columns');
  });

  it('verifies a fix from --candidates, and one from the mutation generator with the packed grammars', async () => {
    const ws = makeWorkspace({
      'a.txt': 'old\n',
      'check.sh': 'test "$(cat a.txt)" = good\n',
      'c.json': JSON.stringify(['bad', 'good']),
      'add.js': 'module.exports = (a, b) => a - b;\n',
      'check.js': 'if (require("./add.js")(2, 3) !== 5) process.exit(1);\n',
    });
    after(() => remove(ws));
    const env = { ...npmEnv(), VERIFIED_FIX_TMPDIR: tempRoot };
    const file = await run(bin, ['fix', '--workspace', ws, '--file', 'a.txt', '--lines', '1-1', '--candidates', join(ws, 'c.json'), '--test', 'sh check.sh', '--k', '1'], { cwd: ws, env });
    assert.equal(file.exitCode, 0, file.stderr);
    assert.match(file.stdout, /1 verified fix \(best first\)[\s\S]*\+good/);
    assert.match(file.stdout, /1 of 2 samples passed; pass@1 50\.0%; pass\^1 50\.0%/);

    const mutation = await run(bin, ['fix', '--workspace', ws, '--file', 'add.js', '--lines', '1-1', '--provider', 'mutation', '--test', 'node check.js', '--k', '1', '--json', '--verbose'], { cwd: ws, env });
    assert.equal(mutation.exitCode, 0, mutation.stderr);
    assert.match(mutation.stderr, /parsed on a worker thread from the request's start/);
    const json = JSON.parse(mutation.stdout);
    assert.ok(json.candidates.some((c: { replacement: string; verified: boolean }) => c.verified && c.replacement.includes('a + b')), mutation.stdout);
  });

  it('exits 2 naming the nearest flag on a typo', async () => {
    const r = await run(bin, ['fix', '--sample', '3']);
    assert.equal(r.exitCode, 2);
    assert.equal(r.stderr, "verified-fix: Unknown option '--sample'. Did you mean --samples?\n");
  });
});
