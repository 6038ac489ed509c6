// resolvePackageScript against real npm and /bin/sh: the resolved command runs what npm test runs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resolvePackageScript } from '../../../src/core/testCommand/packageScript';
import type { ScriptResolution } from '../../../src/core/testCommand/packageScript';
import { packageJsonText, remove, workspaceMaker } from '../../unit/helpers/workspace';

const workspace = workspaceMaker();
const copies: string[] = [];
after(() => remove(...copies));
const pkg = packageJsonText;
type Resolved = Extract<ScriptResolution, { kind: 'resolved' }>;
function resolved(dir: string, command: string): Resolved {
  const resolution = resolvePackageScript(dir, command, '/opt/node');
  assert.equal(resolution.kind, 'resolved', resolution.kind === 'unchanged' ? resolution.reason : '');
  return resolution as Resolved;
}

describe('resolvePackageScript', () => {
  it('keeps leading assignments, exported to the whole script', () => {
    const dir = workspace({ 'package.json': pkg({ test: 'tsc && mocha' }) });
    const resolution = resolved(dir, "CI=1 NODE_ENV='a b' npm test");
    assert.ok(resolution.command.startsWith(`CI=1 NODE_ENV='a b'; export CI NODE_ENV PATH=`), resolution.command);
    const run = spawnSync('/bin/sh', ['-c', resolution.command.replace(/tsc && mocha$/, 'printf "%s|%s" "$CI" "$NODE_ENV"; sh -c \'printf "|%s" "$NODE_ENV"\'')], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.stdout, '1|a b|a b');
  });
});

// The fake tool reports what it was given and what launched it, and passes when answer.txt (next to package.json) says so.
const TOOL = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const launchers = [];
for (let pid = process.ppid; pid > 1 && pid !== Number(process.env.STOP_PID); ) {
  // npm renames its process to its command line ("npm test"), so the program is the title's first word.
  launchers.push(...fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').slice(0, 2).map((arg) => path.basename(arg.split(' ')[0])));
  const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
  pid = Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1]);
}
const init = process.env.INIT_CWD;
console.log('MYTOOL ' + JSON.stringify({
  argv: process.argv.slice(2),
  event: process.env.npm_lifecycle_event,
  script: process.env.npm_lifecycle_script,
  name: process.env.npm_package_name,
  version: process.env.npm_package_version,
  port: process.env.npm_package_config_port,
  cwd: path.relative(init, process.cwd()),
  packageJson: path.relative(init, process.env.npm_package_json),
  firstOnPath: path.relative(init, process.env.PATH.split(':')[0]),
  npm: launchers.some((name) => name === 'npm' || name === 'npm-cli.js'),
}));
process.exit(fs.readFileSync(path.join(init, 'answer.txt'), 'utf8').trim() === 'pass' ? 0 : 1);
`;

/** Writes the fake tool into `dir`'s node_modules the way npm installs a binary: the package, and a link in .bin. */
function installTool(dir: string): void {
  mkdirSync(join(dir, 'node_modules', 'mytool'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'mytool', 'cli.js'), TOOL);
  chmodSync(join(dir, 'node_modules', 'mytool', 'cli.js'), 0o755);
  symlinkSync('../mytool/cli.js', join(dir, 'node_modules', '.bin', 'mytool'));
}

/** A copy of `dir` somewhere else, as the engine makes it: files copied, node_modules a folder of links to the original's entries. */
function mirror(dir: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'vf-copy-'));
  copies.push(copy);
  cpSync(dir, copy, { recursive: true, filter: (source) => source !== join(dir, 'node_modules') });
  if (existsSync(join(dir, 'node_modules'))) {
    mkdirSync(join(copy, 'node_modules'));
    for (const entry of readdirSync(join(dir, 'node_modules'))) symlinkSync(join(dir, 'node_modules', entry), join(copy, 'node_modules', entry));
  }
  return copy;
}

// The test runner's own variables (npm's, if it was started by npm test; node --test's child context) stay out of both runs.
const baseEnv: NodeJS.ProcessEnv = { STOP_PID: String(process.pid) };
for (const [key, value] of Object.entries(process.env)) {
  if (!/^(npm_|INIT_CWD$|NODE_TEST_CONTEXT$)/i.test(key)) baseEnv[key] = value;
}

interface Run {
  readonly status: number | null;
  readonly reports: unknown[];
  readonly output: string;
}

function sh(command: string, cwd: string, env: Readonly<Record<string, string>> = {}): Run {
  const run = spawnSync('/bin/sh', ['-c', command], { cwd, env: { ...baseEnv, ...env }, encoding: 'utf8', timeout: 60_000 });
  const reports = run.stdout.split('\n').filter((line) => line.startsWith('MYTOOL ')).map((line) => JSON.parse(line.slice('MYTOOL '.length)));
  return { status: run.status, reports, output: run.stdout + run.stderr };
}

/** Runs `command` through npm in `npmDir` and resolved (resolving against `workspace`) in `copy`; both must agree. */
function compare(command: string, workspace: string, npmDir: string, copy: string): { viaNpm: Run; direct: Run } {
  const resolution = resolved(workspace, command);
  const viaNpm = sh(command, npmDir);
  const direct = sh(resolution.command, copy, resolution.env);
  assert.equal(direct.status, viaNpm.status, `npm:\n${viaNpm.output}\ndirect:\n${direct.output}`);
  assert.deepEqual(
    direct.reports.map((report) => ({ ...(report as object), npm: undefined })),
    viaNpm.reports.map((report) => ({ ...(report as object), npm: undefined })),
  );
  assert.ok(viaNpm.reports.every((report) => (report as { npm: boolean }).npm), 'the tool sees npm among its launchers when npm runs it');
  assert.ok(direct.reports.every((report) => !(report as { npm: boolean }).npm), 'the resolved command does not start npm');
  return { viaNpm, direct };
}

describe('resolvePackageScript against real npm', () => {
  const scripts = { test: 'mytool check', both: 'mytool first && cd sub && mytool second', env: 'PATH=/usr/bin:/bin:$PATH mytool $npm_lifecycle_event' };
  const project = workspace({ 'package.json': pkg(scripts, { version: '2.0.0', config: { port: '8080' } }), 'answer.txt': 'pass\n', 'sub/answer.txt': 'fail\n' });
  installTool(project);
  const copy = mirror(project);
  const answer = (text: string) => {
    for (const dir of [project, copy]) writeFileSync(join(dir, 'answer.txt'), text);
  };

  it('runs the same tool with the same arguments and lifecycle variables as npm test, without npm', () => {
    answer('pass\n');
    const { viaNpm } = compare("npm test -- --flag 'a b'", project, project, copy);
    assert.equal(viaNpm.status, 0);
    assert.deepEqual(viaNpm.reports, [
      {
        argv: ['check', '--flag', 'a b'],
        event: 'test',
        script: 'mytool check',
        name: 'demo',
        version: '2.0.0',
        port: '8080',
        cwd: '',
        packageJson: 'package.json',
        firstOnPath: join('node_modules', '.bin'),
        npm: true,
      },
    ]);
  });

  it('propagates a failing run the same way', () => {
    answer('fail\n');
    assert.equal(compare('npm test', project, project, copy).viaNpm.status, 1);
  });

  it('runs a script of several commands, with cd, as written', () => {
    answer('pass\n');
    const { viaNpm } = compare('npm run both -- x', project, project, copy);
    assert.deepEqual(viaNpm.reports.map((report) => (report as { argv: string[]; cwd: string }).argv), [['first'], ['second', 'x']]);
    assert.deepEqual(viaNpm.reports.map((report) => (report as { cwd: string }).cwd), ['', 'sub']);
  });

  it('keeps a script that changes PATH and reads $npm_lifecycle_event working', () => {
    answer('pass\n');
    const { viaNpm } = compare('npm run env', project, project, copy);
    assert.deepEqual((viaNpm.reports[0] as { argv: string[] }).argv, ['env']);
  });

  it("finds a tool installed only at a monorepo's root, as npm test in the package does", () => {
    const root = workspace({ 'package.json': JSON.stringify({ name: 'root', private: true }), 'packages/a/package.json': pkg({ test: 'mytool check' }), 'packages/a/answer.txt': 'pass\n' });
    installTool(root);
    const packageA = join(root, 'packages', 'a');
    const copy = mirror(packageA);
    assert.equal(sh('npm test', copy).status, 127, 'npm in the copy alone does not find the tool: the root is not above the copy');
    const { viaNpm } = compare('npm test', packageA, packageA, copy);
    assert.equal(viaNpm.status, 0);
    assert.deepEqual((viaNpm.reports[0] as { argv: string[] }).argv, ['check']);
  });

  it('gives node --test the same exit codes as npm test, passing and failing', () => {
    const tests = workspace({
      'package.json': pkg({ test: 'node --test' }),
      'pass.test.js': "require('node:test')('passes', () => {});\n",
      'fail.test.js': "require('node:test')('fails', () => { throw new Error('no'); });\n",
    });
    const copy = mirror(tests);
    for (const [file, status] of [['pass.test.js', 0], ['fail.test.js', 1]] as const) {
      const command = `npm test -- ${file}`;
      const resolution = resolved(tests, command);
      assert.equal(sh(command, tests).status, status, command);
      const direct = sh(resolution.command, copy, resolution.env);
      assert.equal(direct.status, status, direct.output);
      assert.match(direct.output, status === 0 ? /# pass 1/ : /# fail 1/);
    }
  });
});
