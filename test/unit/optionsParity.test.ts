// Every option through the settings validator and through the CLI's flag reader: the same value or the same message (test/e2e/cli/optionsParity.test.ts runs the built CLI).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixHelp, readFlags } from '../../src/cli/flags';
import type { OptionSpec } from '../../src/core/request/options';
import { OPTIONS, optionsOf, valuesIn } from '../../src/core/request/options';
import { validateSettings } from '../../src/host/model/settingsSchema';

const all = OPTIONS as readonly OptionSpec[];
/** Options both front ends offer: the ones parity is about. */
const shared = all.filter((o) => o.setting !== undefined && o.flag !== undefined);
const required = ['--workspace=w', '--file=f', '--lines=1'];

interface Side {
  readonly values: Record<string, unknown>;
  readonly problems: readonly string[];
}

/** The CLI's reading. --provider is pinned unless the case is about it: the CLI infers it from --endpoint. */
function viaCli(args: readonly string[]): Side {
  const pin = args.some((a) => a.startsWith('--provider=')) ? [] : ['--provider=mutation'];
  const { values, problems } = readFlags([...required, ...pin, ...args]);
  return { values, problems: problems.map((p) => p.message) };
}

function viaSettings(settings: Record<string, unknown>): Side {
  const { settings: values, problems } = validateSettings((key) => settings[key], 4);
  return { values, problems };
}

/** The editor's text is the CLI's message and the value used instead; every shared value is the same. */
function assertSame(cli: Side, editor: Side, what: string): void {
  assert.equal(editor.problems.length, cli.problems.length, `${what}: ${JSON.stringify({ cli: cli.problems, editor: editor.problems })}`);
  cli.problems.forEach((message, i) => {
    assert.ok(editor.problems[i].startsWith(`${message}; using `) && editor.problems[i].endsWith('.'), `${what}: ${editor.problems[i]} is not ${message}`);
  });
  for (const o of shared) assert.deepEqual(cli.values[o.name], editor.values[o.name], `${what}: ${o.name}`);
}

/** A settings.json value and the flags that say the same. */
type Case = readonly [setting: unknown, flags: readonly string[]];

/** Good and bad inputs by kind, each written both ways. */
function cases(o: OptionSpec): Case[] {
  const flag = (v: unknown) => [`--${o.flag}=${v}`];
  switch (o.kind) {
    case 'integer':
    case 'decimal':
    case 'seconds': {
      const min = o.min as number;
      const max = o.max as number;
      const good = [min, max, Math.floor((min + max) / 2), ...(o.kind === 'integer' ? [] : [min + 0.5])];
      const bad = [max + 1, min - 1, 'ten', ...(o.kind === 'integer' ? [min + 0.5] : [])];
      return [...good, ...bad].map((v) => [v, flag(v)]);
    }
    case 'boolean':
      return [[!o.default, [`--${o.flag}`]], [o.default, []]];
    case 'string':
      return [['abc', flag('abc')], ['  padded  ', flag('  padded  ')], ['', flag('')]];
    case 'list':
      // An empty flag is the empty list (`--link=`: link nothing), as `[]` is in settings.json.
      return o.repeatOnly
        ? [[['--a=1,2', '-b'], [`--${o.flag}=--a=1,2`, `--${o.flag}=-b`]], [[], flag('')]]
        : [[['a', 'b'], flag('a,b')], [['a', 'b', 'c'], [...flag('a,b'), ...flag(' c ')]], [[], flag('')]];
    case 'enum': {
      const both = valuesIn(o, 'cli').filter((v) => valuesIn(o, 'editor').includes(v));
      return [...both, 'nope'].map((v) => [v, flag(v)]);
    }
  }
}

describe('options parity: settings.json and flags', () => {
  for (const o of shared) {
    it(`${o.setting} / --${o.flag}`, () => {
      for (const [setting, flags] of cases(o)) {
        // A fallback equal to the provider is a problem of its own, checked below.
        const extra = o.name === 'provider' ? { fallbackProvider: 'none' } : {};
        assertSame(viaCli(flags), viaSettings({ provider: 'mutation', ...extra, [o.setting as string]: setting }), `${JSON.stringify(setting)} / ${flags.join(' ')}`);
      }
    });
  }

  const crossed: Array<[string, Record<string, unknown>, string[], RegExp | undefined]> = [
    ['k above samples', { samples: 3, k: 5 }, ['--samples=3', '--k=5'], /^"verifiedFix\.k" \/ --k \(5\) must not exceed "verifiedFix\.samples" \/ --samples \(3\)$/],
    ['an unset k following a smaller samples', { samples: 2 }, ['--samples=2'], undefined],
    ['bad samples and a k above its fallback', { samples: 500, k: 50 }, ['--samples=500', '--k=50'], /must not exceed "verifiedFix\.samples" \/ --samples \(10\)$/],
    ['a fallback equal to the provider', { provider: 'mutation', fallbackProvider: 'mutation' }, ['--provider=mutation', '--fallback-provider=mutation'], /^"verifiedFix\.fallbackProvider" \/ --fallback-provider \(mutation\) must differ from "verifiedFix\.provider" \/ --provider$/],
  ];
  for (const [name, settings, flags, message] of crossed) {
    it(`treats ${name} alike`, () => {
      const cli = viaCli(flags);
      assertSame(cli, viaSettings(settings), name);
      if (message) assert.match(cli.problems.at(-1) ?? '', message);
      else assert.deepEqual(cli.problems, []);
    });
  }

  it('reports a value only the other front end offers as not one of the choices, marked', () => {
    assert.match(viaCli(['--provider=vscode-lm']).problems[0], /must be one of mutation, openai-compatible, vscode-lm \(editor only\), file \(CLI only\), got "vscode-lm"$/);
    assert.match(viaSettings({ provider: 'file' }).problems[0], /must be one of mutation, openai-compatible, vscode-lm \(editor only\), file \(CLI only\), got "file"; using mutation\.$/);
  });

  it('reads durations in seconds as milliseconds, alike', () => {
    assert.equal(viaCli(['--timeout=1.5']).values.testTimeoutMs, 1500);
    assert.equal(viaSettings({ testTimeoutSeconds: 1.5 }).values.testTimeoutMs, 1500);
    assert.equal(viaCli([]).values.requestTimeoutMs, 120_000);
  });
});

describe('the CLI flags', () => {
  it('infers the provider from --candidates or --endpoint, and takes the file provider\'s count as the samples default', () => {
    assert.equal(readFlags([...required, '--candidates=c.json']).values.provider, 'file');
    assert.equal(readFlags([...required, '--endpoint=http://h/v1']).values.provider, 'openai-compatible');
    assert.equal(readFlags([...required, '--endpoint=http://h/v1', '--provider=mutation']).values.provider, 'mutation');
    const six = readFlags([...required, '--candidates=c.json'], 6).values;
    assert.deepEqual([six.samples, six.k], [6, 5]);
    assert.deepEqual(readFlags([...required, '--candidates=c.json', '--k=3'], 2).problems.map((p) => p.message), ['"verifiedFix.k" / --k (3) must not exceed "verifiedFix.samples" / --samples (2)']);
  });

  it('names each missing required flag and rejects unknown flags', () => {
    assert.deepEqual(readFlags(['--file=f']).problems.map((p) => p.message), ['--workspace is required']);
    assert.throws(() => readFlags([...required, '--bogus']), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' });
  });

  it('lists every flag in --help, with its bounds, default and setting', () => {
    const help = fixHelp();
    for (const o of optionsOf('cli')) assert.ok(help.includes(`--${o.flag}`), `--${o.flag} is missing from the help`);
    assert.match(help, /--samples N +n: candidates .*\[1–100; default 10; verifiedFix\.samples\]/);
    assert.match(help, /--sandbox auto\|bwrap\|unshare\|process-group\|container\n/);
    assert.match(help, /--provider mutation\|openai-compatible\|file\n/);
  });
});
