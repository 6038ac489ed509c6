// The provider registry: an entry for every name a front end offers, the options each reads, fallbacks and defaults.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createProvidersFromFlags } from '../../src/cli/providerFromFlags';
import { readFlags } from '../../src/cli/flags';
import type { OptionSpec } from '../../src/core/request/options';
import { OPTIONS, valuesIn } from '../../src/core/request/options';
import { CORE_PROVIDERS, createProviders, unreadOptions } from '../../src/core/providers/registry';
import { makeWorkspace, remove } from './helpers/workspace';

const providerOption = (OPTIONS as readonly OptionSpec[]).find((o) => o.name === 'provider') as OptionSpec;
const names = new Set((OPTIONS as readonly OptionSpec[]).map((o) => o.name));
const ws = makeWorkspace({ 'c.json': JSON.stringify(['a', 'b', 'c']) });
after(() => remove(ws));
const required = ['--workspace=w', '--file=f', '--lines=1'];
const env = { apiKey: async () => undefined, notice: () => undefined };

describe('provider registry', () => {
  it('has an entry for every provider the CLI offers, and leaves only vscode-lm to the host', () => {
    assert.deepEqual(valuesIn(providerOption, 'cli').filter((n) => !(n in CORE_PROVIDERS)), []);
    assert.deepEqual(valuesIn(providerOption, 'editor').filter((n) => !(n in CORE_PROVIDERS)), ['vscode-lm']);
  });

  it('names only options of the table as read', () => {
    for (const [name, entry] of Object.entries(CORE_PROVIDERS)) {
      for (const option of entry.reads) assert.ok(names.has(option), `${name} reads ${option}, which the table lacks`);
    }
  });

  it('builds the file provider with its count as the samples default, and a fallback', async () => {
    const { values } = readFlags([...required, `--candidates=${join(ws, 'c.json')}`, '--fallback-provider=mutation']);
    const made = await createProviders(values, env);
    assert.equal(made.provider.name, 'file');
    assert.equal(made.defaultSamples, 3);
    assert.equal(made.fallbackProvider?.name, 'mutation');
  });

  it('says what the file provider needs, and that a host-only provider is not available in the core', async () => {
    const { values } = readFlags([...required, '--provider=file']);
    await assert.rejects(createProviders(values, env), /--provider file needs --candidates FILE\.json/);
    await assert.rejects(createProviders({ ...values, provider: 'vscode-lm' }, env), /the vscode-lm provider is not available here/);
  });

  it('points out provider flags no chosen provider reads', async () => {
    const reading = readFlags([...required, '--provider=mutation', '--temperature=0.2', '--samples=3']);
    assert.deepEqual(unreadOptions(reading.values, reading.given), ['temperature']);
    const notices: string[] = [];
    await createProvidersFromFlags(reading.values, reading.given, (line) => notices.push(line), {});
    assert.deepEqual(notices, ['warning: --temperature is not used by the mutation provider']);
    const fallback = readFlags([...required, '--provider=mutation', '--fallback-provider=openai-compatible', '--model=m', '--temperature=0.2']);
    assert.deepEqual(unreadOptions(fallback.values, fallback.given), [], 'the fallback reads them');
  });
});
