// package.json's `contributes.configuration` against the options table: same settings, defaults, bounds, enums and scope.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { OptionSpec } from '../../src/core/request/options';
import { optionsOf, valuesIn } from '../../src/core/request/options';

interface Property {
  type: string;
  default: unknown;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  enumDescriptions?: string[];
  items?: { type: string };
  scope?: string;
  markdownDescription?: string;
  description?: string;
}

const packageJson = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
// Settings are grouped into categories (Testing, Candidates and model, …): one table of them all.
const declared: Record<string, Property> = Object.assign({}, ...packageJson.contributes.configuration.map((c: { properties: object }) => c.properties));
const settings = optionsOf('editor');

/** JSON schema types by kind: seconds are declared (and typed by users) in seconds. */
const types: Record<OptionSpec['kind'], string> = { integer: 'integer', decimal: 'number', seconds: 'number', boolean: 'boolean', string: 'string', list: 'array', enum: 'string' };

describe('package.json settings and the options table', () => {
  for (const option of settings) {
    const key = `verifiedFix.${option.setting}`;
    it(`declares ${key} as the table does`, () => {
      const p = declared[key];
      assert.ok(p, `${key} is in the table but not in package.json`);
      assert.equal(p.type, types[option.kind], 'type');
      assert.deepEqual(p.default, option.default, 'default');
      assert.equal(p.minimum, option.min, 'minimum');
      assert.equal(p.maximum, option.max, 'maximum');
      assert.deepEqual(p.enum, option.kind === 'enum' ? valuesIn(option, 'editor') : undefined, 'enum: the values the editor offers');
      if (p.enumDescriptions) assert.equal(p.enumDescriptions.length, p.enum?.length, 'one enumDescription per value');
      if (option.kind === 'list') assert.deepEqual(p.items, { type: 'string' });
      assert.equal(p.scope, option.machine ? 'machine' : 'resource', 'scope');
      assert.ok(p.markdownDescription || p.description, 'a description');
    });
  }

  it('has no setting the table lacks', () => {
    const known = new Set(settings.map((o) => `verifiedFix.${o.setting}`));
    assert.deepEqual(Object.keys(declared).filter((key) => !known.has(key)), []);
  });

  it('offers the container sandbox with its three settings', () => {
    assert.ok(declared['verifiedFix.sandbox.backend'].enum?.includes('container'));
    assert.deepEqual(['engine', 'image', 'extraArgs'].map((k) => declared[`verifiedFix.container.${k}`]?.scope), ['machine', 'resource', 'machine']);
  });

  it('has its own activity-bar icon in the package, not the Testing view\'s beaker', () => {
    for (const { icon } of packageJson.contributes.viewsContainers.activitybar as Array<{ icon: string }>) {
      assert.doesNotMatch(icon, /beaker/);
      assert.match(readFileSync(join(__dirname, '..', '..', '..', icon), 'utf8'), /^<svg [^>]*stroke="currentColor"/, `${icon}: a monochrome SVG that follows the theme`);
    }
  });
});

describe('package.json settings categories', () => {
  it('groups the settings into the categories VS Code\'s settings editor shows, each setting with its own order', () => {
    const categories: { title: string; order: number; properties: Record<string, { order?: number }> }[] = packageJson.contributes.configuration;
    assert.deepEqual(categories.map((c) => c.title), ['Testing', 'Candidates and model', 'Sandbox and isolation', 'Statistics']);
    assert.equal(new Set(categories.map((c) => c.order)).size, categories.length);
    for (const c of categories) {
      const orders = Object.values(c.properties).map((p) => p.order);
      assert.equal(new Set(orders).size, orders.length, `${c.title}: two settings share an order`);
    }
    const candidates = Object.keys(categories[1].properties);
    assert.ok(candidates.indexOf('verifiedFix.provider') < candidates.indexOf('verifiedFix.fallbackProvider'), 'Provider before Fallback Provider');
  });
});
