// The `fix` command's flags, derived from the options table: parsing, conversion by kind, and the help text.
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import type { OptionSpec } from '../core/request/options';
import { OPTION_GROUPS, optionsOf, valuesIn } from '../core/request/options';
import type { OptionsReading } from '../core/request/readOptions';
import { readOptions } from '../core/request/readOptions';
import { exitCodesHelp, withSuggestion } from './helpText';

const flagOptions = optionsOf('cli');

/** parseArgs's configuration: booleans take no value; lists may be repeated (`--exclude a --exclude b`). */
function parseArgsOptions(): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    flagOptions.map((o) => [o.flag as string, o.kind === 'boolean' ? { type: 'boolean' as const } : { type: 'string' as const, ...(o.kind === 'list' ? { multiple: true } : {}) }]),
  );
}

/** Plain decimal notation only: `Number('')` is 0 and `Number('0x10')` 16, which nobody means by a flag. */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A flag's text as settings.json would hold it, so the one reader judges both alike: a number where the text is
 * one (else the text, which the reader reports as given), a list from each occurrence split at commas.
 */
export function flagValue(option: OptionSpec, raw: string | boolean | ReadonlyArray<string | boolean> | undefined): unknown {
  if (raw === undefined) return undefined;
  switch (option.kind) {
    case 'boolean':
      return !option.default;
    case 'integer':
    case 'decimal':
    case 'seconds':
      return typeof raw === 'string' && NUMBER.test(raw.trim()) ? Number(raw) : raw;
    case 'list': {
      const items = (Array.isArray(raw) ? raw : [raw]).map(String);
      return option.repeatOnly ? items : items.flatMap((item) => item.split(','));
    }
    default:
      return raw;
  }
}

/**
 * Parses `argv` (an unknown flag throws parseArgs's own error) and reads the options. Without --provider the
 * provider follows the flags given: `file` with --candidates, `openai-compatible` with --endpoint. `samplesDefault`
 * is the chosen provider's own, when it has one.
 */
export function readFlags(argv: readonly string[], samplesDefault?: number): OptionsReading {
  let raw: ReturnType<typeof parseArgs>['values'];
  try {
    raw = parseArgs({ args: [...argv], options: parseArgsOptions(), allowPositionals: false, strict: true }).values;
  } catch (error) {
    throw withSuggestion(error, [...flagOptions.map((o) => o.flag as string), 'help'], 'verified-fix fix --help');
  }
  const provider = raw.provider !== undefined ? undefined : raw.candidates !== undefined ? 'file' : raw.endpoint !== undefined ? 'openai-compatible' : undefined;
  return readOptions((option) => flagValue(option, raw[option.flag as string]), {
    frontEnd: 'cli',
    defaults: { ...(provider ? { provider } : {}), ...(samplesDefault !== undefined ? { samples: samplesDefault } : {}) },
  });
}

/** The flag as help shows it, with its argument. */
function synopsis(option: OptionSpec): string {
  const arg: Record<OptionSpec['kind'], string> = {
    integer: 'N', decimal: 'X', seconds: 'SEC', boolean: '', string: option.unit ?? 'TEXT',
    list: option.repeatOnly ? 'ARG' : 'A,B,…', enum: valuesIn(option, 'cli').join('|'),
  };
  return `--${option.flag}${arg[option.kind] ? ` ${arg[option.kind]}` : ''}`;
}

/** Bounds, default and setting in brackets, so the help says what the editor's settings say. */
function details(option: OptionSpec): string {
  const unit = option.unit && ['integer', 'decimal', 'seconds'].includes(option.kind) ? ` ${option.unit}` : '';
  const parts: string[] = [];
  if (option.min !== undefined && option.max !== undefined) parts.push(`${option.min}–${option.max}${unit}`);
  const value = option.default;
  const shown = Array.isArray(value) ? value.join(',') : value;
  if (option.kind !== 'boolean' && shown !== undefined && shown !== '') parts.push(`default ${shown}${unit}`);
  if (option.required) parts.push('required');
  if (option.setting) parts.push(`verifiedFix.${option.setting}`);
  return parts.length > 0 ? ` [${parts.join('; ')}]` : '';
}

export const fixUsage = 'usage: verified-fix fix --workspace DIR [--file REL --lines A-B | --test-name NAME] [options]  (verified-fix fix --help lists them)';

/** `verified-fix fix --help`: every flag by group, each with its bounds, default and setting. */
export function fixHelp(): string {
  const out = [fixUsage.replace(/ {2}\(.*\)$/, ''), ''];
  for (const group of OPTION_GROUPS) {
    const options = flagOptions.filter((o) => o.group === group);
    if (options.length === 0) continue;
    out.push(`${group}:`);
    for (const option of options) {
      // A flag that turns a default-on option off says so; a long synopsis gets the text on its own line.
      const text = `${option.kind === 'boolean' && option.default === true ? 'turn off ' : ''}${option.description}${details(option)}`;
      const flag = `  ${synopsis(option)}`;
      out.push(flag.length < 36 ? `${flag.padEnd(36)} ${text}` : `${flag}\n${' '.repeat(37)}${text}`);
    }
    out.push('');
  }
  out.push(
    'examples:',
    '  # the simplest run: offline (the built-in mutation generator), the detected test command',
    '  verified-fix fix --workspace . --file src/clamp.js --lines 7-7',
    '  # no lines: the failing tests (or those named) say which functions to try, likeliest first',
    '  verified-fix fix --workspace . --test-name "clamp keeps the upper bound"',
    '  # verify the replacements listed in a file (the file provider), as JSON for a bot',
    '  verified-fix fix --workspace . --file src/pricing.js --lines 5-5 \\',
    '    --candidates candidates.json --json',
    '  # ask a local model (Ollama) for 10 candidates and keep those `npm test` verifies',
    '  verified-fix fix --workspace . --file src/clamp.js --lines 7-7 --samples 10 \\',
    '    --endpoint http://localhost:11434/v1 --model qwen2.5-coder:7b --test "npm test"',
    '',
    ...exitCodesHelp('fix'),
  );
  return out.join('\n');
}
