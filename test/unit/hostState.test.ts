// The context keys in state.ts are exactly those package.json's `when` clauses use, as CommandId is for its commands.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ContextKey, MementoKey } from '../../src/host/state';
import { repoRoot } from './helpers/paths';

const contributes = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).contributes;

/** Every `when` clause anywhere under `value`. */
function whenClauses(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(whenClauses);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => (key === 'when' && typeof v === 'string' ? [v] : whenClauses(v)));
}

describe('context keys', () => {
  const clauses = whenClauses(contributes);
  // View ids appear in `when` clauses too (`view == verifiedFix.statsView`), but they are not context keys.
  const viewIds = new Set(Object.values(contributes.views ?? {}).flatMap((views) => (views as { id: string }[]).map((v) => v.id)));
  const used = new Set(clauses.flatMap((c) => c.match(/\bverifiedFix\.[A-Za-z][\w.]*/g) ?? []).filter((k) => !viewIds.has(k)));

  it('finds the when clauses', () => {
    assert.ok(clauses.length > 5, clauses.join('\n'));
  });

  it('are the ones package.json uses, no more and no fewer', () => {
    assert.deepEqual([...used].sort(), Object.values(ContextKey).sort());
  });
});

describe('memento keys', () => {
  it('are distinct and namespaced', () => {
    const keys = Object.values(MementoKey);
    assert.equal(new Set(keys).size, keys.length);
    for (const key of keys) assert.match(key, /^verifiedFix\./);
  });
});
