// Finds which runner a test command really runs (through npm, pnpm and yarn scripts) and the invocation to build on.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { avaAdapter } from '../testResults/ava';
import { cargoAdapter } from '../testResults/cargo';
import { goAdapter } from '../testResults/go';
import { jestAdapter, jestJsonAdapter, withJestGuard } from '../testResults/jest';
import { installedJestMajor, ownJestProcessor, ownJestSerializers, ownJestSetupAfterEnv } from './jestConfig';
import { mochaAdapter } from '../testResults/mocha';
import { nodeAdapter } from '../testResults/node';
import { pytestAdapter } from '../testResults/pytest';
import { tapAdapter } from '../testResults/tap';
import { tapeAdapter } from '../testResults/tape';
import { shellQuote } from '../testResults/shell';
import type { ShellWord } from '../testResults/shell';
import { configBounds } from './configBounds';
import type { RunnerAdapter } from '../testResults/types';
import { unittestAdapter } from '../testResults/unittest';
import { vitestAdapter, vitestConfigAdapter } from '../testResults/vitest';
import { vitestConfigNamesReporters } from './vitestReporters';
import { walkScripts } from './scriptChain';
import type { ChainWalk } from './scriptChain';

/** A runner this tool reads, with `base` to hand to its adapter's `command`; or one sentence saying why not. */
export type ResolvedRunner =
  | {
      readonly adapter: RunnerAdapter;
      readonly base: string;
      /** Why the engine cannot run only some of the tests (the command selects its own): per-test results, no staging. */
      readonly noSelection?: string;
      /** Whether the runner's configuration search was bounded to the copy (configBounds.ts), for the log. */
      readonly configNote?: string;
      /** The coverage tool the command runs the tests under, which the engine's runs leave out, for the log. */
      readonly coverageNote?: string;
    }
  | { readonly unsupported: string };

const raw = (words: readonly ShellWord[]) => words.map((word) => word.raw);
const hasFlag = (words: readonly ShellWord[], ...flags: string[]) =>
  words.some((word) => flags.some((flag) => word.value === flag || word.value.startsWith(`${flag}=`)));

/** For each runner: options that would fight the report or the selection (the runner would take one of two), or never finish. */
const REFUSED: Record<string, Array<[flags: string[], why: string]>> = {
  node: [[['--watch', '--watch-path'], 'waits for changes instead of finishing']],
  jest: [
    [['--watch', '--watchAll'], 'waits for changes instead of finishing'],
    [['--listTests'], 'lists the tests instead of running them'],
  ],
  vitest: [
    [['--watch', '-w'], 'waits for changes instead of finishing'],
    [['--outputFile'], 'writes its own report'],
  ],
  mocha: [
    [['--watch', '-w'], 'waits for changes instead of finishing'],
  ],
  pytest: [
    [['--lf', '--last-failed', '--ff', '--failed-first', '--sw', '--stepwise', '--nf', '--new-first'], 'depends on the cache of earlier runs'],
    [['-f', '--looponfail'], 'waits for changes instead of finishing'],
  ],
  go: [[['-run', '--run', '-list', '--list'], 'selects its own tests']],
  cargo: [[['-q', '--quiet', '--format', '--list'], 'changes the lines that name each test']],
  ava: [[['--watch', '-w'], 'waits for changes instead of finishing']],
  tap: [
    [['-w', '--watch'], 'waits for changes instead of finishing'],
    [['-o', '--output-file', '-d', '--output-dir'], 'writes its own report'],
  ],
};

/**
 * Options that keep the engine from selecting tests, though the report can still be had: each full run is judged
 * test by test, but no candidate runs the failing tests alone first. Mocha's report comes through a hook, so its own
 * reporter options are no conflict at all.
 */
const OWN_SELECTION: Record<string, string[]> = {
  mocha: ['--grep', '-g', '--fgrep', '-f', '--invert', '-i'],
  jest: ['-t', '--testNamePattern', '--runTestsByPath'],
  vitest: ['-t', '--testNamePattern'],
  ava: ['--match', '-m'],
};

/** What the user can change, after a refusal: the end of the log's sentence. */
const change = (flag?: string) => `to get per-test results, set verifiedFix.testCommand (--test) to the test runner alone${flag ? `, without ${flag}` : ''}`;

/** Jest with the results processor, or with `--json` where the user's config names its own processor. */
function jest(workspace: string, invocation: string[], args: ShellWord[]): { adapter: RunnerAdapter; invocation: string[]; args: ShellWord[] } | { unsupported: string } {
  // The matchers and globals are locked by a module jest loads in each test file's environment, through an option
  // the project does not set itself (the command-line one would replace its own), where its jest (24 or later)
  // takes the option.
  const guardOption = (installedJestMajor(workspace) ?? 0) < 24 ? undefined
    : ownJestSetupAfterEnv(workspace, args) === undefined ? 'setupFilesAfterEnv'
      : ownJestSerializers(workspace, args) === undefined ? 'snapshotSerializers' : undefined;
  const guarded = (adapter: RunnerAdapter) => (guardOption ? withJestGuard(adapter, guardOption) : adapter);
  const own = ownJestProcessor(workspace, args);
  if (own === undefined) return { adapter: guarded(jestAdapter), invocation, args };
  if (hasFlag(args, '--json', '--outputFile')) {
    return { unsupported: `${own} names its own testResultsProcessor and the command writes its own --json report, so neither side channel is free (drop --json or --outputFile from the command to get them)` };
  }
  return { adapter: guarded(jestJsonAdapter), invocation, args };
}

/** Where the program is: first, or after `npx` and its options. */
function programAt(words: readonly ShellWord[]): number {
  let at = 0;
  if (basename(words[0]?.value ?? '') === 'npx') for (at = 1; at < words.length && words[at].value.startsWith('-'); ) at++;
  return at;
}

/** Coverage tools that start the test runner named after their own options (`nyc -r lcov mocha`, `c8 node --test`). */
const COVERAGE_WRAPPERS = new Set(['nyc', 'c8', 'istanbul']);
const RUNNER_PROGRAM = /^(node|nodejs|jest|mocha|_mocha|vitest|tap|tape|ava|pytest|py\.test|python[\d.]*)$/;

/**
 * The runner words inside a coverage tool's command, or undefined when `words` starts no such tool. A value of the
 * tool's own options (`-r lcov`, `--lines 100`) never names a runner, so the first word that does starts the runner;
 * `istanbul cover SCRIPT [options] -- ARGS` passes ARGS to SCRIPT.
 */
function insideCoverage(words: readonly ShellWord[]): { tool: string; inner: ShellWord[] } | undefined {
  const at = programAt(words);
  const tool = basename(words[at]?.value ?? '');
  if (!COVERAGE_WRAPPERS.has(tool)) return undefined;
  // `npx nyc mocha`: npx found the tool, and the same npx finds the runner.
  const npx = words.slice(0, at);
  const rest = words.slice(at + 1);
  if (tool === 'istanbul') {
    if (rest[0]?.value !== 'cover' || !rest[1]) return undefined;
    const dashes = rest.findIndex((word) => word.value === '--');
    return { tool: 'istanbul cover', inner: [...npx, rest[1], ...(dashes > 1 ? rest.slice(dashes + 1) : [])] };
  }
  const start = rest.findIndex((word) => RUNNER_PROGRAM.test(basename(word.value)));
  return start < 0 ? undefined : { tool, inner: [...npx, ...rest.slice(start)] };
}

type Identified = { adapter: RunnerAdapter; invocation: string[]; args: ShellWord[]; coverageTool?: string } | { unsupported: string };

/**
 * The runner a program is, with the invocation words to keep (a local binary of a script gets its path). Under a
 * coverage tool, the runner inside it: the engine's runs leave the tool out (see `coverageNote`).
 */
function identify(workspace: string, words: readonly ShellWord[], fromScript: boolean): Identified {
  const covered = insideCoverage(words);
  if (!covered) return identifyRunner(workspace, words, fromScript);
  const inner = identifyRunner(workspace, covered.inner, fromScript);
  return 'unsupported' in inner ? inner : { ...inner, coverageTool: covered.tool };
}

function identifyRunner(workspace: string, words: readonly ShellWord[], fromScript: boolean): Identified {
  const at = programAt(words);
  const program = words[at]?.value ?? '';
  const name = basename(program);
  const invocation = raw(words.slice(0, at + 1));
  const args = words.slice(at + 1);
  const sub = args[0]?.value;
  const local = (bin: string) => {
    // npm puts node_modules/.bin on PATH for scripts; the sandbox has no npm around the command, so use the path.
    if (!fromScript || at > 0 || program !== bin) return true;
    if (!existsSync(join(workspace, 'node_modules', '.bin', bin))) return false;
    invocation[invocation.length - 1] = `./node_modules/.bin/${bin}`;
    return true;
  };
  const notInstalled = (bin: string) => ({ unsupported: `${bin} is not installed in node_modules/.bin (install the dependencies first)` });
  if ((name === 'node' || name === 'nodejs') && args.some((word) => word.value === '--test')) return { adapter: nodeAdapter, invocation, args };
  if (name === 'jest') return local('jest') ? jest(workspace, invocation, args) : notInstalled('jest');
  if (name === 'mocha' || name === '_mocha') return local(name) ? { adapter: mochaAdapter, invocation, args } : notInstalled(name);
  if (name === 'vitest') {
    if (!local('vitest')) return notInstalled('vitest');
    const adapter = vitestConfigNamesReporters(workspace, args) ? vitestConfigAdapter : vitestAdapter;
    if (sub === 'run') return { adapter, invocation: [...invocation, 'run'], args: args.slice(1) };
    if (sub && ['watch', 'dev', 'bench', 'related', 'init', 'list'].includes(sub)) return { unsupported: `vitest ${sub} is not a single run of the tests` };
    // Plain `vitest` watches when it thinks a person is at a terminal; `run` makes it finish either way.
    return { adapter, invocation: [...invocation, 'run'], args };
  }
  if (name === 'tap') return local('tap') ? { adapter: tapAdapter, invocation, args } : notInstalled('tap');
  if (name === 'tape') return local('tape') ? { adapter: tapeAdapter, invocation, args } : notInstalled('tape');
  if (name === 'ava') return local('ava') ? { adapter: avaAdapter, invocation, args } : notInstalled('ava');
  if (name === 'pytest' || name === 'py.test') return { adapter: pytestAdapter, invocation, args };
  if (/^python(?:\d+(?:\.\d+)?)?$/.test(name) && sub === '-m' && args[1]?.value === 'pytest') {
    return { adapter: pytestAdapter, invocation: [...invocation, '-m', 'pytest'], args: args.slice(2) };
  }
  if (/^python(?:\d+(?:\.\d+)?)?$/.test(name) && sub === '-m' && args[1]?.value === 'unittest') {
    return { adapter: unittestAdapter, invocation: [...invocation, '-m', 'unittest'], args: args.slice(2) };
  }
  if (name === 'go' && sub === 'test') return { adapter: goAdapter, invocation: [...invocation, 'test'], args: args.slice(1) };
  if (name === 'cargo' && sub === 'test') return { adapter: cargoAdapter, invocation: [...invocation, 'test'], args: args.slice(1) };
  return { unsupported: `${raw(words.slice(0, at + (sub === '-m' ? 3 : 2))).join(' ')} is not a test runner this tool reads` };
}

/** Why a walk that stopped gives no runner, in this resolver's words. */
function stoppedReason(stopped: NonNullable<ChainWalk['stopped']>): string {
  switch (stopped.kind) {
    case 'refused':
      return `${stopped.what} ${stopped.reason}`;
    case 'noProgram':
      return `${stopped.what} runs no program`;
    case 'notAScript':
      return stopped.reason;
    case 'noScript':
      return `package.json has no "${stopped.script}" script`;
    case 'hook':
      return `the "${stopped.hook}" script runs with "${stopped.script}", and running the tests alone would skip it`;
    case 'tooDeep':
      return `${stopped.what} calls scripts more than ${stopped.depth} deep`;
  }
}

function resolve(workspace: string, command: string): ResolvedRunner {
  const walk = walkScripts(workspace, command);
  if (walk.stopped) return { unsupported: `${stoppedReason(walk.stopped)}; ${change()}` };
  const last = walk.levels[walk.levels.length - 1];
  const found = identify(workspace, last.words, walk.levels.length > 1);
  if ('unsupported' in found) return found;
  for (const [flags, why] of REFUSED[found.adapter.name] ?? []) {
    const flag = flags.find((one) => hasFlag(found.args, one));
    if (flag) return { unsupported: `${last.what} ${why} (${flag}); ${change(flag)}` };
  }
  // Each level's prefixes hold for what it runs: the outer ones first, as sh would set them.
  const env = walk.levels.flatMap((level) => raw(level.assignments));
  const bounds = configBounds(found.adapter.name, workspace, found.args.map((word) => word.value), found.invocation);
  const base = [...env, ...found.invocation, ...(bounds?.flags ?? []).map(shellQuote), ...raw(found.args)].join(' ');
  const own = (OWN_SELECTION[found.adapter.name] ?? []).find((flag) => hasFlag(found.args, flag));
  const note = {
    ...(bounds ? { configNote: bounds.log } : {}),
    // Coverage is not what a fix is judged on: its thresholds would fail every run of a few tests, its instrumentation
    // slows every run, and a coverage tool of its own (c8's NODE_V8_COVERAGE) would take the baseline's from the engine.
    ...(found.coverageTool
      ? { coverageNote: `coverage: the runs start \`${[...found.invocation, ...raw(found.args)].join(' ')}\` without \`${found.coverageTool}\` in front (tests decide, not coverage thresholds); your own runs keep it` }
      : {}),
  };
  return own ? { adapter: found.adapter, base, noSelection: `${last.what} selects its own tests (${own})`, ...note } : { adapter: found.adapter, base, ...note };
}

/**
 * The runner behind `command` (the workspace's test command, as configured or detected) and the invocation its
 * adapter builds on, or why per-test results cannot be had from it. `npm test`, `npm run X`, `pnpm X`, `yarn X`
 * are followed into package.json: the script's own command becomes the base, with `NAME=value` prefixes kept and
 * local binaries (jest, vitest, mocha) called as ./node_modules/.bin/NAME, which is what npm's PATH would find.
 * Running the script's text rather than `npm test -- ARGS` matters: npm can only append arguments, and node --test
 * takes everything after its first file as more files. Refused: several commands (`&&`, `;`, `|`), variable or
 * command expansions, pre/post scripts (the script alone would skip them), watch modes, and options that choose
 * their own reporter or tests.
 */
export function resolveRunner(workspace: string, command: string): ResolvedRunner {
  return resolve(workspace, command);
}
