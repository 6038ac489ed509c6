// resolvePackageScript: table-driven resolution and fallbacks, then real runs checked against npm itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resolvePackageScript } from '../../src/core/testCommand/packageScript';
import type { ScriptResolution } from '../../src/core/testCommand/packageScript';
import { makeWorkspace, remove } from './helpers/workspace';

const cleanup: string[] = [];
after(() => remove(...cleanup));

function workspace(files: Record<string, string>): string {
  const dir = makeWorkspace(files);
  cleanup.push(dir);
  return dir;
}

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'demo', version: '1.0.0', scripts, ...extra });
const SETUP_END = 'INIT_CWD="$PWD"; ';
/** The part of a resolved command after the environment it sets up: what the script runs. */
const scriptPart = (command: string) => command.slice(command.indexOf(SETUP_END) + SETUP_END.length);

type Resolved = Extract<ScriptResolution, { kind: 'resolved' }>;
function resolved(dir: string, command: string): Resolved {
  const resolution = resolvePackageScript(dir, command, '/opt/node');
  assert.equal(resolution.kind, 'resolved', resolution.kind === 'unchanged' ? resolution.reason : '');
  return resolution as Resolved;
}

const mocha = { 'node_modules/.bin/mocha': '#!/bin/sh\n' };
const resolutions: Array<[command: string, files: Record<string, string>, runs: string, env: Record<string, string | undefined>]> = [
  ['npm test', { 'package.json': pkg({ test: 'mocha --recursive test' }), ...mocha }, 'exec mocha --recursive test', { npm_command: 'test' }],
  ['npm t -- --flag "a b"', { 'package.json': pkg({ test: 'mocha' }), ...mocha }, "exec mocha --flag 'a b'", { npm_command: 'test' }],
  ['npm tst -s', { 'package.json': pkg({ test: 'node --test' }) }, 'exec node --test', { npm_command: 'test' }],
  ['npm run unit -- x', { 'package.json': pkg({ unit: 'node --test' }) }, 'exec node --test x', { npm_command: undefined, npm_lifecycle_event: 'unit' }],
  ['npm run-script unit --silent', { 'package.json': pkg({ unit: 'node --test' }) }, 'exec node --test', { npm_command: undefined }],
  ["npm test -- \"it's\" '' '*'", { 'package.json': pkg({ test: 'node --test' }) }, `exec node --test 'it'\\''s' '' '*'`, {}],
  ['pnpm test', { 'package.json': pkg({ test: 'mocha' }), ...mocha }, 'exec mocha', { npm_command: undefined }],
  ['pnpm run unit a', { 'package.json': pkg({ unit: 'mocha' }), ...mocha }, 'exec mocha a', { npm_lifecycle_event: 'unit' }],
  ['pnpm unit', { 'package.json': pkg({ unit: 'mocha' }), ...mocha }, 'exec mocha', {}],
  ['yarn test', { 'package.json': pkg({ test: 'mocha' }), ...mocha }, 'exec mocha', { npm_command: undefined }],
  ['yarn run unit', { 'package.json': pkg({ unit: 'mocha' }), ...mocha }, 'exec mocha', {}],
  ['yarn unit b', { 'package.json': pkg({ unit: 'mocha' }), ...mocha }, 'exec mocha b', {}],
  // not handed to exec: the shell still has work after it, or the program may be a builtin
  ['npm test', { 'package.json': pkg({ test: 'tsc && mocha' }), ...mocha }, 'tsc && mocha', {}],
  ['npm test -- a', { 'package.json': pkg({ test: 'cd test && mocha' }), ...mocha }, 'cd test && mocha a', {}],
  ['npm test', { 'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }) }, 'echo "Error: no test specified" && exit 1', {}],
  ['npm test', { 'package.json': pkg({ test: 'exit 1' }) }, 'exit 1', {}],
  ['npm test', { 'package.json': pkg({ test: 'NODE_ENV=test mocha' }), ...mocha }, 'NODE_ENV=test mocha', {}],
  ['npm test', { 'package.json': pkg({ test: 'mocha $npm_lifecycle_event' }), ...mocha }, 'mocha $npm_lifecycle_event', {}],
  ['npm test', { 'package.json': pkg({ test: 'globalmocha' }) }, 'globalmocha', {}],
  // what npm exports from package.json
  ['npm test', { 'package.json': pkg({ test: 'node --test' }, { config: { port: 8080, tags: ['a'] }, engines: { node: '>=20' } }) }, 'exec node --test', {
    npm_package_config_port: '8080',
    npm_package_config_tags_0: 'a',
    npm_package_engines_node: '>=20',
  }],
  ['npm test', { 'package.json': JSON.stringify({ scripts: { test: 'node --test' } }) }, 'exec node --test', { npm_package_name: undefined, npm_package_version: undefined }],
];

const refusals: Array<[command: string, files: Record<string, string>, reason: RegExp | undefined]> = [
  // not a package-manager script call: nothing to say
  ['node --test', {}, undefined],
  ['make test && echo done', {}, undefined],
  ['CI=1', {}, undefined],
  ['', {}, undefined],
  // a package-manager call that cannot be run without it
  ['npm test && echo done', { 'package.json': pkg({ test: 'node --test' }) }, /^the test command chains several commands/],
  ['npm test -- $FILES', { 'package.json': pkg({ test: 'node --test' }) }, /^the test command expands variables/],
  ['npx mocha', mocha, /^npx runs a package's binary/],
  ['npm exec mocha', mocha, /^npm exec does not run a package\.json script/],
  ['npm start', { 'package.json': pkg({ start: 'node server.js' }) }, /^npm start starts the package/],
  ['npm install', { 'package.json': pkg({ install: 'node-gyp rebuild' }) }, /^npm install does not run/],
  ['npm test --workspace=a', { 'package.json': pkg({ test: 'node --test' }) }, /^npm option --workspace=a cannot be kept/],
  ['npm -s test', { 'package.json': pkg({ test: 'node --test' }) }, /^npm -s does not run/],
  ['yarn check', { 'package.json': pkg({ check: 'node --test' }) }, /^yarn check is yarn's own command/],
  ['pnpm deploy', { 'package.json': pkg({ deploy: 'node --test' }) }, /^pnpm deploy is pnpm's own command/],
  ['pnpm test -- --flag', { 'package.json': pkg({ test: 'node --test' }) }, /^pnpm passes options and "--" to scripts differently/],
  ['yarn test -s', { 'package.json': pkg({ test: 'node --test' }) }, /^yarn passes options/],
  ['npm_config_script_shell=bash npm test', { 'package.json': pkg({ test: 'node --test' }) }, /npm's own configuration \(npm_config_script_shell=bash\)/],
  ['npm test -- test/*.js', { 'package.json': pkg({ test: 'node --test' }) }, /^the argument test\/\*\.js is expanded by the shell/],
  ['npm test -- ~/a.js', { 'package.json': pkg({ test: 'node --test' }) }, /is expanded by the shell/],
  ['npm test', {}, /^package\.json is missing or is not a JSON object$/],
  ['npm test', { 'package.json': '{"scripts": ' }, /^package\.json is missing/],
  ['npm test', { 'package.json': '[]' }, /^package\.json is missing/],
  ['npm run lint', { 'package.json': pkg({ test: 'node --test' }) }, /^package\.json has no "lint" script$/],
  ['npm test', { 'package.json': pkg({ test: ' ' }) }, /^the "test" script is empty$/],
  ['npm test', { 'package.json': pkg({ test: 'node --test', pretest: 'tsc' }) }, /^the "pretest" script runs with "test"$/],
  ['npm run unit', { 'package.json': pkg({ unit: 'node --test', postunit: 'rm -rf x' }) }, /^the "postunit" script runs with "unit"$/],
  ['npm test', { 'package.json': pkg({ test: 'node --test' }, { workspaces: ['packages/*'] }) }, /^package\.json declares workspaces/],
  ['yarn test', { 'package.json': pkg({ test: 'node --test' }, { packageManager: 'yarn@4.1.0' }) }, /asks for yarn@4\.1\.0/],
  ['yarn test', { 'package.json': pkg({ test: 'node --test' }), '.pnp.cjs': '' }, /\.pnp\.cjs marks a Yarn 2\+ project/],
  ['yarn test', { 'package.json': pkg({ test: 'node --test' }), '.pnp.js': '' }, /\.pnp\.js marks a Yarn 2\+ project/],
  ['npm test', { 'package.json': pkg({ test: 'node --test' }), '.yarnrc.yml': 'nodeLinker: node-modules\n' }, /\.yarnrc\.yml marks a Yarn 2\+ project/],
  ['npm test', { 'package.json': pkg({ test: 'node --test' }), '.npmrc': 'script-shell=/bin/bash\n' }, /^\.npmrc sets script-shell/],
  ['npm test', { 'package.json': pkg({ test: 'node --test' }), '.npmrc': 'fund=false\nnode-options = --max-old-space-size=100\n' }, /^\.npmrc sets node-options/],
  ['npm test', { 'package.json': pkg({ test: 'node --test' }), '.npmrc': 'ignore-scripts=true\n' }, /^\.npmrc sets ignore-scripts/],
  ['pnpm test', { 'package.json': pkg({ test: 'node --test' }), '.npmrc': 'shell-emulator=true\n' }, /^\.npmrc sets shell-emulator/],
];

describe('resolvePackageScript', () => {
  for (const [command, files, runs, env] of resolutions) {
    it(`${JSON.stringify(command)} with ${JSON.stringify(JSON.parse(files['package.json']).scripts)} runs: ${runs}`, () => {
      const resolution = resolved(workspace(files), command);
      assert.equal(scriptPart(resolution.command), runs);
      assert.ok(resolution.command.startsWith('export PATH="$PWD/node_modules/.bin":'), resolution.command);
      assert.match(resolution.command, /:"\$PATH" npm_package_json="\$PWD\/package\.json" INIT_CWD="\$PWD"; /);
      const script = JSON.parse(files['package.json']).scripts[resolution.script];
      const expected = { npm_lifecycle_event: resolution.script, npm_lifecycle_script: script, npm_package_name: 'demo', npm_package_version: '1.0.0', NODE: '/opt/node', npm_node_execpath: '/opt/node', ...env };
      for (const [key, value] of Object.entries(expected)) assert.equal(resolution.env[key], value, key);
    });
  }

  for (const [command, files, reason] of refusals) {
    it(`${JSON.stringify(command)} with ${Object.keys(files).join(', ') || 'no files'} stays unchanged${reason ? `: ${reason}` : ''}`, () => {
      const resolution = resolvePackageScript(workspace(files), command);
      assert.equal(resolution.kind, 'unchanged');
      if (reason) assert.match(resolution.reason ?? '', reason);
      else assert.equal(resolution.reason, undefined);
    });
  }

  it('keeps leading assignments, exported to the whole script', () => {
    const dir = workspace({ 'package.json': pkg({ test: 'tsc && mocha' }) });
    const resolution = resolved(dir, "CI=1 NODE_ENV='a b' npm test");
    assert.ok(resolution.command.startsWith(`CI=1 NODE_ENV='a b'; export CI NODE_ENV PATH=`), resolution.command);
    const run = spawnSync('/bin/sh', ['-c', resolution.command.replace(/tsc && mocha$/, 'printf "%s|%s" "$CI" "$NODE_ENV"; sh -c \'printf "|%s" "$NODE_ENV"\'')], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.stdout, '1|a b|a b');
  });

  it('describes what runs in one line', () => {
    const dir = workspace({ 'package.json': pkg({ test: 'mocha --recursive\n  test' }), ...mocha });
    assert.equal(resolved(dir, 'npm test').description, 'npm test runs its script directly: mocha --recursive test (node_modules/.bin on PATH)');
    assert.equal(resolved(dir, "npm test -- -g 'a b'").description, "npm test runs its script directly: mocha --recursive test -g 'a b' (node_modules/.bin on PATH)");
    assert.match(resolved(workspace({ 'package.json': pkg({ unit: 'mocha' }) }), 'yarn unit').description, /^yarn run unit runs its script directly: mocha /);
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
  cleanup.push(copy);
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
