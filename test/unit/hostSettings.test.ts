// The extension's settings rules: defaults agree with package.json, bad values are named and replaced, k ≤ samples.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateSettings } from '../../src/host/model/settingsSchema';

const packageJson = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
// Settings are grouped into categories (Testing, Candidates and model, …): one table of them all.
const declared: Record<string, { default: unknown }> = Object.assign({}, ...packageJson.contributes.configuration.map((c: { properties: object }) => c.properties));

/** A `get` over `values` keyed without the `verifiedFix.` prefix. */
const from = (values: Record<string, unknown>) => (key: string) => values[key];

describe('validateSettings', () => {
  it('reads package.json\'s defaults as the same snapshot as no settings at all, with no problems', () => {
    const defaults = Object.fromEntries(Object.entries(declared).map(([name, p]) => [name.replace(/^verifiedFix\./, ''), p.default]));
    const fromPackage = validateSettings(from(defaults), 8);
    assert.deepEqual(fromPackage.problems, []);
    assert.deepEqual(fromPackage.settings, validateSettings(from({}), 8).settings);
    assert.equal(fromPackage.settings.samples, 10);
    assert.equal(fromPackage.settings.k, 5);
    assert.equal(fromPackage.settings.request.parallel, 8, 'parallel 0 means the CPU count');
    assert.equal(fromPackage.settings.request.testCommand, undefined, 'empty means detect');
    assert.equal(fromPackage.settings.fallbackProvider, 'none');
    assert.equal(fromPackage.settings.request.isolation.container, undefined, 'no container setting, none passed on');
  });

  const bad: Array<[string, Record<string, unknown>, RegExp, (s: ReturnType<typeof validateSettings>['settings']) => unknown, unknown]> = [
    ['samples above 100', { samples: 500 }, /"verifiedFix\.samples" \/ --samples must be a whole number from 1 to 100, got 500; using 10\./, (s) => s.samples, 10],
    ['a CLI-only provider', { provider: 'file' }, /--provider must be one of .* file \(CLI only\), got "file"/, (s) => s.provider, 'mutation'],
    ['an unknown container engine', { 'container.engine': 'lxc' }, /"verifiedFix\.container\.engine" \/ --container-engine must be one of auto, podman, docker, got "lxc"; using auto\./, (s) => s.containerEngine, 'auto'],
    ['a fractional samples', { samples: 2.5 }, /^"verifiedFix\.samples" \/ --samples must be a whole number from 1 to 100, got 2\.5; using 10\.$/, (s) => s.samples, 10],
    ['samples as a string', { samples: 'ten' }, /"verifiedFix\.samples" .* got "ten"/, (s) => s.samples, 10],
    ['k above samples', { samples: 3, k: 5 }, /^"verifiedFix\.k" \/ --k \(5\) must not exceed "verifiedFix\.samples" \/ --samples \(3\); using 3\.$/, (s) => s.k, 3],
    ['a zero timeout', { testTimeoutSeconds: 0 }, /"verifiedFix\.testTimeoutSeconds" \/ --timeout must be a number of seconds from 1 to 2147483, got 0; using 60\./, (s) => s.testTimeoutMs, 60_000],
    ['a negative total timeout', { totalTimeoutSeconds: -1 }, /"verifiedFix\.totalTimeoutSeconds"/, (s) => s.totalTimeoutMs, 600_000],
    ['an unknown provider', { provider: 'gpt' }, /"verifiedFix\.provider" \/ --provider must be one of mutation, openai-compatible, vscode-lm \(editor only\), file \(CLI only\), got "gpt"; using mutation\./, (s) => s.provider, 'mutation'],
    ['a fallback equal to the provider', { provider: 'mutation', fallbackProvider: 'mutation' }, /"verifiedFix\.fallbackProvider" \/ --fallback-provider \(mutation\) must differ from "verifiedFix\.provider" \/ --provider; using none\./, (s) => s.fallbackProvider, 'none'],
    ['a string for a boolean', { baselineCheck: 'yes' }, /"verifiedFix\.baselineCheck" \/ --no-baseline must be true or false, got "yes"; using true\./, (s) => s.baselineCheck, true],
    ['a list with a number', { 'isolation.excludes': ['dist', 3] }, /"verifiedFix\.isolation\.excludes" \/ --exclude must be a list of strings, got \["dist",3\]; using \[\]\./, (s) => s.excludes, []],
    ['a temperature above 2', { temperature: 3 }, /"verifiedFix\.temperature" \/ --temperature must be a number from 0 to 2, got 3; using 0\.8\./, (s) => s.temperature, 0.8],
    ['confirmRuns of 0', { confirmRuns: 0 }, /"verifiedFix\.confirmRuns" \/ --confirm-runs must be a whole number from 1 to 10/, (s) => s.confirmRuns, 2],
  ];
  for (const [name, values, problem, field, expected] of bad) {
    it(`reports ${name} by name and uses a safe value`, () => {
      const { settings, problems } = validateSettings(from(values), 4);
      assert.equal(problems.length, 1, JSON.stringify(problems));
      assert.match(problems[0], problem);
      assert.deepEqual(field(settings), expected);
    });
  }

  it('lets an unset k follow a smaller samples without a problem, and converts seconds', () => {
    const { settings, problems } = validateSettings(from({ samples: 3, testTimeoutSeconds: 1.5, parallel: 2, testCommand: '  npm test  ' }), 4);
    assert.deepEqual(problems, []);
    assert.equal(settings.k, 3);
    assert.equal(settings.testTimeoutMs, 1500);
    assert.equal(settings.request.parallel, 2);
    assert.equal(settings.request.testCommand, 'npm test');
  });
});

describe('settings to request', () => {
  it('passes the container settings on only when set, auto engine as no engine', () => {
    const { settings, problems } = validateSettings(from({ 'sandbox.backend': 'container', 'container.image': ' node:20 ', 'container.extraArgs': ['--userns=keep-id'] }), 2);
    assert.deepEqual(problems, []);
    assert.equal(settings.request.isolation.backend, 'container');
    assert.deepEqual(settings.request.isolation.container, { image: 'node:20', extraArgs: ['--userns=keep-id'] });
  });
});
