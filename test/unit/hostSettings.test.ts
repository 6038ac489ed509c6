// The extension's settings rules: defaults agree with package.json, bad values are named and replaced, k ≤ samples.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validateSettings } from '../../src/host/settingsSchema';

const packageJson = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const declared: Record<string, { default: unknown }> = packageJson.contributes.configuration.properties;

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
    assert.equal(fromPackage.settings.parallel, 8, 'parallel 0 means the CPU count');
    assert.equal(fromPackage.settings.testCommand, undefined, 'empty means detect');
    assert.equal(fromPackage.settings.fallbackProvider, undefined);
  });

  const bad: Array<[string, Record<string, unknown>, RegExp, (s: ReturnType<typeof validateSettings>['settings']) => unknown, unknown]> = [
    ['a fractional samples', { samples: 2.5 }, /"verifiedFix\.samples" must be a whole number from 1 to 100, got 2\.5; using 10/, (s) => s.samples, 10],
    ['samples as a string', { samples: 'ten' }, /"verifiedFix\.samples" .* got "ten"/, (s) => s.samples, 10],
    ['k above samples', { samples: 3, k: 5 }, /"verifiedFix\.k" \(5\) must not exceed "verifiedFix\.samples" \(3\); using k = 3/, (s) => s.k, 3],
    ['a zero timeout', { testTimeoutSeconds: 0 }, /"verifiedFix\.testTimeoutSeconds" must be a number from 1/, (s) => s.testTimeoutMs, 60_000],
    ['a negative total timeout', { totalTimeoutSeconds: -1 }, /"verifiedFix\.totalTimeoutSeconds"/, (s) => s.totalTimeoutMs, 600_000],
    ['an unknown provider', { provider: 'gpt' }, /"verifiedFix\.provider" must be one of mutation, openai-compatible, vscode-lm, got "gpt"; using mutation/, (s) => s.provider, 'mutation'],
    ['a fallback equal to the provider', { provider: 'mutation', fallbackProvider: 'mutation' }, /"verifiedFix\.fallbackProvider" is the same as "verifiedFix\.provider"/, (s) => s.fallbackProvider, undefined],
    ['a string for a boolean', { baselineCheck: 'yes' }, /"verifiedFix\.baselineCheck" must be true or false/, (s) => s.baselineCheck, true],
    ['a list with a number', { 'isolation.excludes': ['dist', 3] }, /"verifiedFix\.isolation\.excludes" must be a list of strings/, (s) => s.excludes, []],
    ['a temperature above 2', { temperature: 3 }, /"verifiedFix\.temperature" must be a number from 0 to 2/, (s) => s.temperature, 0.8],
    ['confirmRuns of 0', { confirmRuns: 0 }, /"verifiedFix\.confirmRuns" must be a whole number from 1 to 10/, (s) => s.confirmRuns, 2],
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
    assert.equal(settings.parallel, 2);
    assert.equal(settings.testCommand, 'npm test');
  });
});
