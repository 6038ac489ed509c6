// The settings snapshot: the options table read from settings.json values, without `vscode`, so it is unit-tested.
import type { OptionValues } from '../../core/request/options';
import type { OptionProblem } from '../../core/request/readOptions';
import { readOptions } from '../../core/request/readOptions';
import type { RequestOptions } from '../../core/request/requestOptions';
import { requestOptions } from '../../core/request/requestOptions';

export type { ProviderName } from '../../core/request/options';

/**
 * One request's settings: every option of the table (src/core/request/options.ts, mirrored by package.json, which
 * a unit test checks), CLI-only ones at their defaults, and the request fields built from them.
 */
export type Settings = OptionValues & {
  /** The engine's request options (parallel 0 resolved to the CPU count, an empty test command left out). */
  readonly request: RequestOptions;
};

/** A snapshot and what was wrong with the raw values (each message names its setting and the value used). */
export interface SettingsReading {
  readonly settings: Settings;
  readonly problems: readonly string[];
}

/** The configuration section every setting lives under. */
export const SECTION = 'verifiedFix';

/** A problem as the editor shows it: the message the CLI would stop with, and the value used instead. */
export function settingsProblemText(problem: OptionProblem): string {
  return `${problem.message}; using ${problem.fallback}.`;
}

/**
 * Validates raw values (`get` returns what settings.json holds for a key without `verifiedFix.`, or undefined) into
 * a snapshot. The rules are the CLI's, from the same table; `cpuCount` resolves `parallel: 0`.
 */
export function validateSettings(get: (key: string) => unknown, cpuCount: number): SettingsReading {
  const { values, problems } = readOptions((option) => (option.setting === undefined ? undefined : get(option.setting)), { frontEnd: 'editor' });
  return { settings: Object.freeze({ ...values, request: requestOptions(values, cpuCount) }), problems: problems.map(settingsProblemText) };
}
