// Reads raw option values (settings.json's, or flags converted by kind) into validated values and named problems.
import type { FrontEnd, OptionName, OptionSpec, OptionValues, ProviderName } from './options';
import { OPTIONS, optionsOf, valuesIn } from './options';

/** A value that cannot be used. The CLI stops with `message` (exit 2); the editor shows it and uses `fallback`. */
export interface OptionProblem {
  readonly option: OptionName;
  /** Names the setting and the flag, says what is expected and what was given: the same text in both front ends. */
  readonly message: string;
  /** What the editor uses instead, as it is shown ("10", "none", "[]"). */
  readonly fallback: string;
}

export interface ReadContext {
  readonly frontEnd: FrontEnd;
  /**
   * Defaults that depend on the situation: the provider the CLI infers from --candidates or --endpoint, the number
   * of candidates in the file provider's file. They stand in for the table's default, unchecked.
   */
  readonly defaults?: { readonly provider?: ProviderName; readonly samples?: number };
}

export interface OptionsReading {
  readonly values: OptionValues;
  readonly problems: readonly OptionProblem[];
  /** The options given a value (set in settings.json, or on the command line). */
  readonly given: ReadonlySet<OptionName>;
}

/** `"verifiedFix.samples" / --samples`: what the user can search for, whichever front end they use. */
export function optionLabel(option: OptionSpec): string {
  return [option.setting && `"verifiedFix.${option.setting}"`, option.flag && `--${option.flag}`].filter(Boolean).join(' / ');
}

/** The enum's values, each marked with the one front end that offers it where only one does. */
function choices(option: OptionSpec): string {
  const only = { cli: ' (CLI only)', editor: ' (editor only)' };
  return (option.values ?? []).map((v) => `${v}${option.valueOnlyIn?.[v] ? only[option.valueOnlyIn[v]] : ''}`).join(', ');
}

const inRange = (option: OptionSpec, value: number) => value >= (option.min ?? -Infinity) && value <= (option.max ?? Infinity);
const range = (option: OptionSpec) => `from ${option.min} to ${option.max}`;

/** The value to use, or what was expected instead. */
function check(option: OptionSpec, raw: unknown, frontEnd: FrontEnd): { value: unknown } | { expected: string } {
  const number = typeof raw === 'number' && Number.isFinite(raw) && inRange(option, raw);
  switch (option.kind) {
    case 'integer':
      return number && Number.isInteger(raw) ? { value: raw } : { expected: `a whole number ${range(option)}` };
    case 'decimal':
      return number ? { value: raw } : { expected: `a number ${range(option)}` };
    case 'seconds':
      return number ? { value: Math.round(1000 * (raw as number)) } : { expected: `a number of seconds ${range(option)}` };
    case 'boolean':
      return typeof raw === 'boolean' ? { value: raw } : { expected: 'true or false' };
    case 'string':
      return typeof raw === 'string' ? { value: raw.trim() } : { expected: 'a string' };
    case 'list':
      return Array.isArray(raw) && raw.every((v) => typeof v === 'string')
        ? { value: raw.map((v: string) => v.trim()).filter(Boolean) }
        : { expected: 'a list of strings' };
    case 'enum':
      return typeof raw === 'string' && valuesIn(option, frontEnd).includes(raw) ? { value: raw } : { expected: `one of ${choices(option)}` };
  }
}

/** The default as it is read (durations in milliseconds) and as the editor shows it (as it is written: seconds). */
function defaultOf(option: OptionSpec, context: ReadContext): { value: unknown; shown: string } {
  const situational = (context.defaults as Record<string, unknown> | undefined)?.[option.name];
  const value = situational ?? option.default ?? (option.required ? '' : undefined);
  const shown = typeof value === 'string' && option.kind !== 'enum' ? JSON.stringify(value) : Array.isArray(value) ? JSON.stringify(value) : String(value);
  return { value: option.kind === 'seconds' ? 1000 * (value as number) : value, shown };
}

const byName = (name: OptionName): OptionSpec => OPTIONS.find((o) => o.name === name) as OptionSpec;

/**
 * Validates what `get` returns for each option the front end offers (undefined or null: not given) against the
 * table, then the rules between options. Pure: the editor and the CLI get the same values and the same messages.
 */
export function readOptions(get: (option: OptionSpec) => unknown, context: ReadContext): OptionsReading {
  const values: Record<string, unknown> = {};
  const problems: OptionProblem[] = [];
  const given = new Set<OptionName>();
  const offered = optionsOf(context.frontEnd);
  for (const option of OPTIONS as readonly OptionSpec[]) {
    const fallback = defaultOf(option, context);
    values[option.name] = fallback.value;
    if (!offered.includes(option)) continue;
    const raw = get(option);
    const name = option.name as OptionName;
    if (raw === undefined || raw === null) {
      if (option.required) problems.push({ option: name, message: `${optionLabel(option)} is required`, fallback: fallback.shown });
      continue;
    }
    given.add(name);
    const checked = check(option, raw, context.frontEnd);
    if ('value' in checked) values[option.name] = checked.value;
    else problems.push({ option: name, message: `${optionLabel(option)} must be ${checked.expected}, got ${JSON.stringify(raw)}`, fallback: fallback.shown });
  }

  // k follows a smaller samples when it is not set; set larger than samples, it is a bad value like any other.
  const kDefault = Math.min(byName('k').default as number, values.samples as number);
  const kProblem = problems.findIndex((p) => p.option === 'k');
  if (kProblem >= 0) problems[kProblem] = { ...problems[kProblem], fallback: String(kDefault) };
  if (!given.has('k') || kProblem >= 0) values.k = kDefault;
  else if ((values.k as number) > (values.samples as number)) {
    problems.push({ option: 'k', message: `${optionLabel(byName('k'))} (${values.k}) must not exceed ${optionLabel(byName('samples'))} (${values.samples})`, fallback: String(kDefault) });
    values.k = kDefault;
  }
  if (values.fallbackProvider !== 'none' && values.fallbackProvider === values.provider) {
    const message = `${optionLabel(byName('fallbackProvider'))} (${values.fallbackProvider}) must differ from ${optionLabel(byName('provider'))}`;
    problems.push({ option: 'fallbackProvider', message, fallback: 'none' });
    values.fallbackProvider = 'none';
  }
  return { values: Object.freeze(values) as OptionValues, problems, given };
}
