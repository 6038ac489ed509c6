// resolvePackageScript: table-driven resolution and fallbacks (test/e2e/testCommand/packageScript.test.ts runs the results against npm).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolvePackageScript } from '../../src/core/testCommand/packageScript';
import type { ScriptResolution } from '../../src/core/testCommand/packageScript';
import { packageJsonText, workspaceMaker } from './helpers/workspace';

const workspace = workspaceMaker();
const pkg = packageJsonText;
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

  it('describes what runs in one line', () => {
    const dir = workspace({ 'package.json': pkg({ test: 'mocha --recursive\n  test' }), ...mocha });
    assert.equal(resolved(dir, 'npm test').description, 'npm test runs its script directly: mocha --recursive test (node_modules/.bin on PATH)');
    assert.equal(resolved(dir, "npm test -- -g 'a b'").description, "npm test runs its script directly: mocha --recursive test -g 'a b' (node_modules/.bin on PATH)");
    assert.match(resolved(workspace({ 'package.json': pkg({ unit: 'mocha' }) }), 'yarn unit').description, /^yarn run unit runs its script directly: mocha /);
  });
});
