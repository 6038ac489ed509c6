// Help-text helpers shared by the CLI's commands: the version, the exit codes and "did you mean".
import { UserError } from '../core/base/errors';

// Replaced by esbuild.js (`define`) with package.json's version; absent when the sources run unbundled.
declare const VERIFIED_FIX_VERSION: string | undefined;

/** package.json's version, fixed in the bundle at build time. */
export const version: string = typeof VERIFIED_FIX_VERSION === 'string' ? VERIFIED_FIX_VERSION : '0.0.0-dev';

/** The exit codes, as every help lists them; main.ts and fixCommand.ts return exactly these. */
export function exitCodesHelp(command: 'fix' | 'stats' | 'all' = 'all'): string[] {
  return [
    'exit codes:',
    command === 'stats' ? '  0  the statistics were printed' : '  0  a verified fix was found',
    ...(command === 'stats' ? [] : ['  1  no candidate was verified']),
    `  2  bad input${command === 'stats' ? '' : ' or a provider failure'}: the message says what failed and what to fix`,
    '  3  internal error (a bug: please report it with the message)',
  ];
}

/** Levenshtein distance: insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known flag nearest to a mistyped one, if it is near enough to be what was meant: a few edits away
 * (`--sample`, `--timout`), or a prefix of exactly one (`--max-concurrent`).
 */
export function nearestFlag(given: string, known: readonly string[]): string | undefined {
  const name = given.replace(/^-+/, '').split('=')[0].toLowerCase();
  if (!name) return undefined;
  const prefixed = known.filter((flag) => flag.startsWith(name));
  if (prefixed.length === 1) return prefixed[0];
  const scored = known.map((flag) => ({ flag, distance: editDistance(name, flag) })).sort((a, b) => a.distance - b.distance);
  const best = scored[0];
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.flag : undefined;
}

/**
 * parseArgs's "Unknown option" error as bad input that names the nearest flag; other errors pass through.
 * `known` holds flags without their leading `--`.
 */
export function withSuggestion(error: unknown, known: readonly string[], helpCommand: string): unknown {
  if ((error as NodeJS.ErrnoException)?.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return error;
  const given = /Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
  if (!given) return error;
  const near = nearestFlag(given, known);
  const message = `Unknown option '${given}'. ${near ? `Did you mean --${near}?` : `${helpCommand} lists the options.`}`;
  // The same code as parseArgs's own error, so callers that tell bad flags apart by it still do.
  return Object.assign(new UserError(message), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' });
}
