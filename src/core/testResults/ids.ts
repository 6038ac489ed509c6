// How test ids are built from a scope (file, package, binary) and names, and turned back into selection patterns.
import { regexEscape } from './shell';

/** Between the scope and each name in an id: `test/range.test.js > inRange > includes hi`. */
export const SEPARATOR = ' > ';

/** The id of a test (or, with no names, of its container) in `scope`. */
export function joinId(scope: string, names: readonly string[]): string {
  return [scope, ...names].filter((part) => part !== '').join(SEPARATOR);
}

/** An id split at its first separator: the scope, and everything after it ('' for a container id). */
export function splitId(id: string): { scope: string; names: string } {
  const at = id.indexOf(SEPARATOR);
  return at < 0 ? { scope: id, names: '' } : { scope: id.slice(0, at), names: id.slice(at + SEPARATOR.length) };
}

/**
 * A regex source for the full name of the test whose names part is `names`, as jest, vitest and mocha spell it
 * (ancestors and title joined by one space). A test name may itself contain ` > `, so each separator in the id
 * may stand for either: at worst a same-named sibling is selected too, never the wanted test missed.
 */
export function fullNamePattern(names: string): string {
  return names.split(SEPARATOR).map(regexEscape).join(`(?:${regexEscape(SEPARATOR)}| )`);
}

/** Every trailing run of the names, longest last: one of them is the test's own name, whichever ` > ` were its own. */
export function ownNameCandidates(names: string): string[] {
  const parts = names.split(SEPARATOR);
  return parts.map((_, i) => parts.slice(parts.length - 1 - i).join(SEPARATOR));
}

// Mocha names a failing hook `"before all" hook[: its name] for "<first test>"`; which test follows `for` depends on
// what was selected, so ids keep only the part before it.
const HOOK = /^("(?:before|after) (?:all|each)" hook(?:: .*?)?)(?: (?:for|in) ".*")?$/s;

/** A mocha hook title without its varying `for "<test>"` part, or undefined when `name` is not a hook's. */
export function hookName(name: string): string | undefined {
  return HOOK.exec(name)?.[1];
}

/**
 * The container whose tests must run for `id` to get a verdict again: the id itself (a file, suite, package or
 * test), or for a mocha hook, the suite the hook belongs to.
 */
export function scopeOf(id: string): string {
  const at = id.lastIndexOf(SEPARATOR);
  return at >= 0 && hookName(id.slice(at + SEPARATOR.length)) !== undefined ? id.slice(0, at) : id;
}

/**
 * For runners that filter by one regex over full names (jest and vitest `-t`, mocha `--grep`): the ids' files and
 * the regex. A hook's id selects every test of its suite (the hook runs only before or after them); an id naming a
 * whole file leaves no regex at all, since every test of that file must run to show it loads now. `lead` goes between
 * the regex's `^` and the names, for a runner whose full names start with more than the outermost title.
 */
export function fullNameSelection(only: readonly string[], lead = ''): { files: string[]; pattern?: string } {
  const files: string[] = [];
  const alternatives: string[] = [];
  let wholeFile = false;
  for (const id of only) {
    const scope = scopeOf(id);
    const parts = splitId(scope);
    files.push(parts.scope);
    if (parts.names === '') wholeFile = true;
    else alternatives.push(`${fullNamePattern(parts.names)}${scope === id ? '$' : ' '}`);
  }
  return { files: unique(files), pattern: wholeFile ? undefined : `^${lead}(?:${unique(alternatives).join('|')})` };
}

/** Whether `id` is a test inside the container `container` (pytest node ids nest with `::`, the others with ` > `). */
export function isInside(id: string, container: string): boolean {
  return id.startsWith(container + SEPARATOR) || id.startsWith(`${container}::`);
}

/** The distinct values of `items`, in first-seen order. */
export function unique(items: Iterable<string>): string[] {
  return [...new Set(items)];
}
