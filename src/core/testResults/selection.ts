// Stage 1's command: the user's invocation without the paths or packages it names, so that only the selected tests' files start.
import { OPTION_GRAMMARS } from './optionGrammar';
import type { OptionGrammar } from './optionGrammar';
import { reporterCommand } from './reporterCommand';
import type { ReporterRun } from './reporterCommand';
import { splitId } from './ids';
import { SHELL_ASSIGNMENT, shellQuote, shellWords } from './shell';
import type { ShellWord } from './shell';
import type { RunnerAdapter, RunnerName } from './types';

/** The invocation with the words that select files dropped, and what was dropped or had to stay. */
export interface NarrowedBase {
  readonly base: string;
  /** The paths, globs, filters or packages the command named: the selection's own files replace them. */
  readonly dropped: readonly string[];
  /** Words that may be paths but follow an option this tool does not know, so might be its value: left in place. */
  readonly kept: readonly string[];
}

/** Words between the program and its arguments: `vitest run`, `go test`, `cargo test`, `python -m pytest`. */
const SUBCOMMANDS: Partial<Record<RunnerName, readonly string[]>> = { vitest: ['run'], go: ['test'], cargo: ['test'], pytest: ['-m', 'pytest'] };

/** Index of the first argument word: after `NAME=value` prefixes, `npx` and its options, the program and its subcommand. */
function argumentsStart(runner: RunnerName, words: readonly ShellWord[]): number {
  let at = 0;
  while (at < words.length && SHELL_ASSIGNMENT.test(words[at].value)) at++;
  if (/(^|\/)npx$/.test(words[at]?.value ?? '')) for (at++; at < words.length && words[at].value.startsWith('-'); ) at++;
  at++;
  const sub = SUBCOMMANDS[runner] ?? [];
  if (sub.every((word, i) => words[at + i]?.value === word)) at += sub.length;
  return at;
}

/** How an option word reads: whether the next word is its value (`next`), or not (`none`), or nobody knows (`unknown`). */
function optionKind(word: string, grammar: OptionGrammar): 'next' | 'none' | 'unknown' {
  if (word.includes('=')) return 'none';
  if (grammar.values.includes(word)) return 'next';
  if (grammar.flags.includes(word) || word.startsWith('--no-')) return 'none';
  if (grammar.bundles && /^-[A-Za-z]/.test(word) && word.length > 2) {
    // `-kfoo` carries its value; `-vx` is two flags; `-vk` takes the next word for -k.
    if (grammar.values.includes(word.slice(0, 2))) return 'none';
    const letters = [...word.slice(1)].map((c) => `-${c}`);
    if (letters.every((flag) => grammar.flags.includes(flag) || grammar.values.includes(flag))) return grammar.values.includes(letters[letters.length - 1]) ? 'next' : 'none';
  }
  return 'unknown';
}

/**
 * `base` (the invocation resolveRunner found) without the words that choose which test files run: node's and mocha's
 * files and globs, jest's path patterns, vitest's filters, pytest's paths, go's packages, cargo's name filter. Each
 * of them would start every file it names beside the selected ones, so stage 1 would cost a full run. Option values
 * stay: a bare word after an option known to take one is its value; after an option this tool does not know, it
 * might be, so it stays too (listed in `kept`) and the stage-1 run may start more than it needs, never less.
 */
export function narrowBase(runner: RunnerName, base: string): NarrowedBase {
  const words = shellWords(base);
  const grammar = OPTION_GRAMMARS[runner];
  if (!Array.isArray(words) || !grammar) return { base, dropped: [], kept: [] };
  const start = argumentsStart(runner, words);
  const out = words.slice(0, start).map((word) => word.raw);
  const dropped: string[] = [];
  const kept: string[] = [];
  for (let at = start; at < words.length; at++) {
    const { value, raw } = words[at];
    if (grammar.passThrough?.includes(value)) {
      out.push(...words.slice(at).map((word) => word.raw));
      break;
    }
    if (!value.startsWith('-') || value === '-') {
      dropped.push(value);
      continue;
    }
    const selects = grammar.selects?.find((option) => value === option || value.startsWith(`${option}=`));
    if (selects) {
      const inline = value !== selects;
      dropped.push(inline ? value.slice(selects.length + 1) : words[at + 1]?.value ?? '');
      if (!inline) at++;
      continue;
    }
    out.push(raw);
    const kind = optionKind(value, grammar);
    const next = words[at + 1];
    if (kind === 'none' || !next || next.value.startsWith('-')) continue;
    // The option's value, known or possible: kept either way. Numbers are no paths, so they need no mention.
    if (kind === 'unknown' && !/^\d+$/.test(next.value)) kept.push(next.value);
    out.push(next.raw);
    at++;
  }
  return { base: out.join(' '), dropped, kept };
}

/** Cargo builds and starts every test target unless told which: the ids' labels name them (`api (tests/api.rs)`). */
function cargoTargets(base: string, only: readonly string[]): string[] | undefined {
  if (/(^|\s)--(?:lib|bins?|tests?|benches|bench|examples?|all-targets|doc)(?=[\s=]|$)/.test(base.split(/\s--(\s|$)/)[0])) return undefined;
  const targets = new Set<string>();
  for (const id of only) {
    const label = /^(\S+) \((.+)\)$/.exec(splitId(id).scope);
    if (!label) return undefined;
    const [, name, source] = label;
    if (source === 'src/lib.rs') targets.add('--lib');
    else if (source === 'doc') targets.add('--doc');
    else if (source === 'src/main.rs' || source.startsWith('src/bin/')) targets.add(`--bin ${shellQuote(name)}`);
    else if (source.startsWith('tests/')) targets.add(`--test ${shellQuote(name)}`);
    else return undefined;
  }
  // --doc cannot be combined with other targets in one cargo invocation.
  return targets.has('--doc') && targets.size > 1 ? undefined : [...targets];
}

/** `base` with cargo's target options after `cargo test`, or as it is. */
function withCargoTargets(base: string, only: readonly string[]): string {
  const targets = cargoTargets(base, only);
  if (!targets || targets.length === 0) return base;
  return base.replace(/^((?:\S+=\S*\s+)*\S*\bcargo\s+test)(?=\s|$)/, `$1 ${targets.join(' ')}`);
}

/**
 * The command that runs `only` (ids from the baseline's report) and as little else as the runner allows: the
 * narrowed invocation plus the adapter's own selection (files, name pattern, packages, cargo targets). Falls back to
 * the adapter's selection on `base` as it is when the narrowed one cannot be built.
 */
export function selectionCommand(adapter: RunnerAdapter, base: string, only: readonly string[], how: { readonly stopAtFirstFailure?: boolean } = {}): ReporterRun | undefined {
  const stop = (invocation: string) => (how.stopAtFirstFailure ? stoppingAtFirstFailure(adapter.name, invocation) : invocation);
  const narrowed = narrowBase(adapter.name, base).base;
  const selected = adapter.name === 'cargo' ? withCargoTargets(narrowed, only) : narrowed;
  return reporterCommand(adapter, stop(selected), only) ?? reporterCommand(adapter, stop(base), only);
}

/**
 * The option that ends a run at its first failing test, for runners whose rounds and runs pay for every failure they
 * report (an assertion's diff of two large objects alone can cost more than the passing tests together), with the
 * words that mean the user's command already says when to stop.
 */
const STOP_AT_FIRST_FAILURE: Partial<Record<RunnerName, { readonly option: string; readonly already: RegExp }>> = {
  mocha: { option: '--bail', already: /^(?:--bail|-b|--no-bail)(?:=|$)/ },
  pytest: { option: '-x', already: /^(?:-[A-Za-z]*x[A-Za-z]*|--exitfirst|--maxfail(?:=.*)?)$/ },
  vitest: { option: '--bail=1', already: /^--bail(?:=|$)/ },
};

/**
 * `base` told to stop at its first failing test, the option right after the program (and its subcommand), where
 * neither a path nor an option the user wrote can take it for a value; `base` as it is when the runner has no such
 * option or the user's command already decides (`--maxfail=3` stands).
 */
export function stoppingAtFirstFailure(runner: RunnerName, base: string): string {
  const stop = STOP_AT_FIRST_FAILURE[runner];
  const words = shellWords(base);
  if (!stop || !Array.isArray(words)) return base;
  const start = argumentsStart(runner, words);
  if (start > words.length || words.slice(start).some((word) => stop.already.test(word.value))) return base;
  return [...words.slice(0, start).map((word) => word.raw), stop.option, ...words.slice(start).map((word) => word.raw)].join(' ');
}

/**
 * The options with which the user's command ends a run at a failure, before the rest of the suite has run, and those
 * that undo them (a count of 0, `--no-bail`): mocha's --bail, vitest's --bail, pytest's -x (bundled too: `-vx`),
 * --exitfirst, --maxfail and --stepwise, go's -failfast. The last one on the command decides, as the runners' own
 * parsers do. Not jest's: the runs this tool reads add `--bail=0` (jest.ts), since jest's bail skips its report.
 */
const STOPS_EARLY: Partial<Record<RunnerName, { readonly stops: RegExp; readonly undoes: RegExp; readonly counted?: RegExp }>> = {
  mocha: { stops: /^(?:--bail(?:=true)?|-b)$/, undoes: /^(?:--no-bail|--bail=false)$/ },
  vitest: { stops: /^--bail(?:=\d+)?$/, undoes: /^--bail=0$/, counted: /^--bail$/ },
  pytest: { stops: /^(?:-x|--exitfirst|--maxfail(?:=\d+)?|--sw|--stepwise)$/, undoes: /^--maxfail=0$/, counted: /^--maxfail$/ },
  go: { stops: /^--?failfast(?:=true)?$/, undoes: /^--?failfast=false$/ },
};

/**
 * The option in `base` (the invocation resolveRunner found) that ends its run at a failure, or undefined. Such a run
 * on the unmodified code stops at the bug's first failing test: its time says how long the failing tests take, not
 * the whole suite. An option's value is not read as an option; bundled single letters are (`-vx` holds -x).
 */
export function stopsEarly(runner: RunnerName, base: string): string | undefined {
  const options = STOPS_EARLY[runner];
  const words = shellWords(base);
  if (!options || !Array.isArray(words)) return undefined;
  const grammar = OPTION_GRAMMARS[runner];
  let found: string | undefined;
  for (let at = argumentsStart(runner, words); at < words.length; at++) {
    const { value } = words[at];
    if (grammar?.passThrough?.includes(value)) break;
    if (options.undoes.test(value)) found = undefined;
    else if (options.stops.test(value)) {
      // `--maxfail 0`, `--bail 0`: a count in the next word.
      const count = options.counted?.test(value) ? words[at + 1]?.value : undefined;
      found = count === '0' ? undefined : value;
      if (count !== undefined && /^\d+$/.test(count)) at++;
      continue;
    } else if (grammar?.bundles && /^-[A-Za-z]{2,}$/.test(value)) {
      for (const letter of value.slice(1)) {
        if (options.stops.test(`-${letter}`)) found = `-${letter}`;
        if (grammar.values.includes(`-${letter}`)) break; // the rest of the word is its value
      }
    }
    if (grammar && value.startsWith('-') && optionKind(value, grammar) === 'next') at++;
  }
  return found;
}

/**
 * Runners whose selected run goes through its files one after another, in the order given, in one process: mocha
 * and pytest, each with the options that spread the files over workers or change their order (mocha's `--parallel`
 * and `--sort`; pytest-xdist's `-n`/`--dist`, pytest-randomly's and pytest-random-order's). A configuration file can
 * say the same (`.mocharc`'s `parallel`, pytest's `addopts`), which this does not read: that costs a wrong candidate
 * more failing tests before it stops, never a verdict.
 */
const REORDERS: Partial<Record<RunnerName, RegExp>> = {
  mocha: /^(?:--parallel|-p|--jobs|-j|--sort|-S)(?:=|$)/,
  pytest: /^(?:-n\S*|--numprocesses(?:=.*)?|--dist(?:=.*)?|-d|--random-order.*|-prandomly|randomly)$/,
};

/** The stop options that end a run at its first failure, not after several. */
const FIRST_FAILURE = /^(?:--bail(?:=true)?|-b|-x|--exitfirst|--maxfail=1|--sw|--stepwise)$/;

/**
 * Whether stage 1's run of `base` (the invocation resolveRunner found) ends at its first failing test, whichever
 * file holds it: the runner goes through the files in the order given and the run stops at its first failure (the
 * option stage 1 adds, or the user's own). Such a run of every failing test, one file's first, ends a candidate
 * that still fails that file there, as a run of that file alone would (having loaded the other files' tests too).
 */
export function selectionStopsInOrder(runner: RunnerName, base: string): boolean {
  const reorders = REORDERS[runner];
  const words = shellWords(base);
  if (!reorders || !Array.isArray(words)) return false;
  if (words.slice(argumentsStart(runner, words)).some((word) => reorders.test(word.value))) return false;
  return FIRST_FAILURE.test(stopsEarly(runner, stoppingAtFirstFailure(runner, narrowBase(runner, base).base)) ?? '');
}

/** One log line: what stage 1 starts for this invocation, and why it might start more than the failing tests' files. */
export function describeNarrowing(runner: RunnerName, base: string): string {
  if (runner === 'unittest') return 'stage 1 (the failing tests): loads the tests as the command says (every test module is imported) and runs only the failing ones';
  const { dropped, kept } = narrowBase(runner, base);
  const unit = runner === 'go' ? 'packages' : runner === 'cargo' ? 'test targets' : 'files';
  const head = `stage 1 (the failing tests): starts only their ${unit}`;
  const droppedText = dropped.length > 0 ? `, in place of ${dropped.map((word) => `\`${word}\``).join(' ')} from the command` : '';
  const keptText = kept.length > 0 ? `; kept ${kept.map((word) => `\`${word}\``).join(' ')}, which may be the value of an option this tool does not know (if it names tests, they start too)` : '';
  return `${head}${droppedText}${keptText}`;
}
