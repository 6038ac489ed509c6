// Why no candidate passed, as a conclusion and next steps: candidates grouped by identical failure, the advice chosen by
// what the failures were (Verdict.cause, per-test results, where the stack goes), never by the prose of a message.
// The editor's message, its Details and the CLI's exit-1 output all say this, each with its own names for the knobs.
import type { CandidateResult, FixResult } from '../contract/fixRequest';
import { isWorkspaceFile, outputLocations } from '../testResults/stackLocations';
import { failureExcerpt } from '../testResults/failureExcerpt';

/**
 * Why a group of candidates failed, most actionable first. `partial`: they fixed some of the tests that fail on the
 * unmodified code, broke none, and still fail the others (which may not depend on the selection at all: a test that
 * fails for another reason blocks every fix). `outsideSelection`: the failure names places in the selected
 * file, none inside the selection (or, with per-test results, names none of it); `failed`: the output says nothing of where.
 */
export type FailureKind = 'baselineTimeout' | 'setup' | 'readOnly' | 'timeout' | 'syntax' | 'partial' | 'outsideSelection' | 'inSelection' | 'failed';

/** Candidates that failed the same way. */
export interface FailureGroup {
  readonly kind: FailureKind;
  /** 1-based candidate numbers, as people count them. */
  readonly numbers: readonly number[];
  /** The tests they still fail (per-test results), else empty. */
  readonly tests: readonly string[];
  /** The failure as one candidate's output shows it. */
  readonly excerpt: readonly string[];
  /** For `outsideSelection`: the first place in the selected file the failure names, "src/range.js:12"; absent when it names none. */
  readonly reaches?: string;
  /** For `partial`: how many of the failing tests the group's candidates fixed (the most any of them did). */
  readonly fixed?: number;
  /** Seconds a run took before it was stopped, for timeouts. */
  readonly seconds?: number;
  /** For `readOnly`: the path outside the run's copy it tried to write. */
  readonly wrote?: string;
  /** For `readOnly`: the unmodified code's run failed the same way, so no test ever ran as it does for the user. */
  readonly baselineToo?: boolean;
}

/** How a front end names its knobs: the editor's settings and commands, or the CLI's flags. */
export interface AdviceNames {
  readonly testTimeout: string;
  readonly samples: string;
  readonly provider: string;
  /** How to widen the selection: "select more lines" / "widen --lines". */
  readonly widen: string;
  /** Where the sandbox's own failure is explained: "the log (Show Log)" / "--verbose". */
  readonly log: string;
  /** The editor's "Fix Failing Test" (absent in the CLI). */
  readonly failingTest?: string;
}

export interface NoFixAdvice {
  /** One sentence leading with what happened: "all 10 candidates still fail `clamp keeps the upper bound`; …". */
  readonly conclusion: string;
  readonly groups: readonly FailureGroup[];
  /** What to do next, most useful first, each naming the front end's knob. */
  readonly next: readonly string[];
}

/**
 * A write the sandbox refused (errno EROFS, the same code in node and Python): every folder but the run's copy and
 * /tmp is read-only there, so a tool that writes under home (nyc 14's spawn-wrap, a cache) fails every run alike.
 */
const READ_ONLY = /\bEROFS: read-only file system, \w+ '([^']+)'|\[Errno 30\] Read-only file system: '([^']+)'/;

/** Where nyc 14 and older (spawn-wrap) write their shims: the user's home. */
const SPAWN_WRAP = /\/\.node-spawn-wrap-/;

const SYNTAX = /\b(SyntaxError|IndentationError|ParseError|syntax error)\b|\berror TS1\d{3}\b|expected .* found/i;

/** Selection lines, 1-based inclusive. */
function selectionLines(result: FixResult): [number, number] {
  const lineAt = (offset: number) => result.originalText.slice(0, offset).split('\n').length;
  const endOffset = result.end > result.start && result.originalText[result.end - 1] === '\n' ? result.end - 1 : result.end;
  return [lineAt(result.start), lineAt(endOffset)];
}

/** Where a failed run's output names the selected file: inside the selection, outside it only, or nowhere. */
function reach(output: string, result: FixResult, [first, last]: [number, number]): { inside: boolean; outside?: string } {
  const named = outputLocations(output).filter((l) => isWorkspaceFile(l.path, result.relativePath));
  if (named.some((l) => l.line >= first && l.line <= last)) return { inside: true };
  return named.length > 0 ? { inside: false, outside: `${result.relativePath}:${named[0].line}` } : { inside: false };
}

function kindOf(c: CandidateResult, result: FixResult, lines: [number, number]): { kind: FailureKind; reaches?: string } {
  const { cause, status } = c.verdict;
  if (cause === 'sandboxSetup' || cause === 'commandNotFound' || cause === 'startFailed') return { kind: 'setup' };
  if (status === 'timeout' || cause === 'timeout') return { kind: 'timeout' };
  if (READ_ONLY.test(c.verdict.output)) return { kind: 'readOnly' };
  if (SYNTAX.test(c.verdict.output) || SYNTAX.test(c.verdict.reason ?? '')) return { kind: 'syntax' };
  // Some of the failing tests fixed, none broken, the rest still failing: those may fail for a reason of their own.
  if (c.tests && c.tests.fixed.length > 0 && c.tests.broke.length === 0 && c.tests.stillFailing.length > 0) return { kind: 'partial' };
  const where = reach(c.verdict.output, result, lines);
  if (where.inside) return { kind: 'inSelection' };
  if (where.outside) return { kind: 'outsideSelection', reaches: where.outside };
  // A stack that names other files but never the selected one: the failing test does not reach the selection.
  const elsewhere = outputLocations(c.verdict.output).some((l) => !/node_modules|^node:|internal\//.test(l.path));
  return elsewhere && c.tests ? { kind: 'outsideSelection' } : { kind: 'failed' };
}

/** The tests a failed candidate still fails or broke, sorted (empty without per-test results). */
function failingTests(c: CandidateResult): string[] {
  return c.tests ? [...new Set([...c.tests.stillFailing, ...c.tests.broke])].sort() : [];
}

/** The same failure in two runs: durations, paths and the random parts of names (hex runs: pids, hashes) aside. */
function failureKey(kind: FailureKind, tests: readonly string[], excerpt: readonly string[]): string {
  const text = tests.length > 0
    ? tests.join('\n')
    : (excerpt[0] ?? '').replace(/\(?\d+(\.\d+)?\s?m?s\)?/g, '').replace(/\/[^\s'"`]*/g, '/').replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b/gi, '#');
  return `${kind}\n${text}`;
}

/** The path a refused write named (READ_ONLY), for the advice. */
function refusedWrite(output: string): string | undefined {
  const match = READ_ONLY.exec(output);
  return match ? match[1] ?? match[2] : undefined;
}

const ORDER: readonly FailureKind[] = ['baselineTimeout', 'setup', 'readOnly', 'timeout', 'syntax', 'partial', 'outsideSelection', 'inSelection', 'failed'];

function readOnlyFacts(kind: FailureKind, c: CandidateResult, result: FixResult): Pick<FailureGroup, 'wrote' | 'baselineToo'> {
  if (kind !== 'readOnly') return {};
  const wrote = refusedWrite(c.verdict.output);
  return { ...(wrote ? { wrote } : {}), baselineToo: refusedWrite(result.baseline?.output ?? '') !== undefined };
}

/** Groups the judged, non-duplicate, unverified candidates by identical failure, largest group first. */
export function failureGroups(result: FixResult): FailureGroup[] {
  const lines = selectionLines(result);
  const groups = new Map<string, { -readonly [K in keyof FailureGroup]: FailureGroup[K] } & { numbers: number[] }>();
  for (const c of result.candidates) {
    if (c.verified || c.duplicateOf !== null || c.verdict.cancelled || c.verdict.status === 'pass') continue;
    const { kind, reaches } = kindOf(c, result, lines);
    const tests = failingTests(c);
    const excerpt = failureExcerpt(c.verdict, 5);
    const key = failureKey(kind, tests, excerpt);
    const group = groups.get(key) ?? { kind, numbers: [], tests, excerpt: excerpt.length > 0 ? excerpt : c.verdict.reason ? [c.verdict.reason] : [], ...(reaches ? { reaches } : {}), ...readOnlyFacts(kind, c, result) };
    group.numbers.push(c.index + 1);
    if (kind === 'timeout') group.seconds = Math.max(group.seconds ?? 0, c.verdict.durationMs / 1000);
    if (kind === 'partial') group.fixed = Math.max(group.fixed ?? 0, c.tests?.fixed.length ?? 0);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.numbers.length - a.numbers.length || ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
}

function code(text: string): string {
  return `\`${text}\``;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What one group did, after "all 10 candidates" or "3 candidates" (`one`: a single candidate, so a singular verb). */
export function groupVerb(group: FailureGroup, one = group.numbers.length === 1): string {
  const verb = (singular: string, plural: string) => (one ? singular : plural);
  switch (group.kind) {
    case 'baselineTimeout':
    case 'timeout':
      return `timed out${group.seconds ? ` (stopped at ${group.seconds.toFixed(1)} s)` : ''}`;
    case 'setup':
      return `could not start the test run (${group.excerpt[0] ?? 'setup failed'})`;
    case 'syntax':
      return `${verb('does', 'do')} not parse (a syntax error)`;
    case 'readOnly':
      return `could not write ${group.wrote ? code(group.wrote) : 'a file'} outside the run's copy (read-only in the sandbox)${group.baselineToo ? ', as the unmodified code\'s run could not, so the tests never ran' : ''}`;
    case 'partial':
    case 'outsideSelection':
    case 'inSelection':
    case 'failed': {
      const fixedSome = group.kind === 'partial' ? `${verb('fixes', 'fix')} ${plural(group.fixed ?? 0, 'failing test')} but ` : '';
      const still = fixedSome + (group.tests.length > 0
        ? `still ${verb('fails', 'fail')} ${group.tests.slice(0, 2).map(code).join(', ')}${group.tests.length > 2 ? ` and ${group.tests.length - 2} more` : ''}`
        : `${verb('fails', 'fail')}${group.excerpt[0] ? ` with ${code(group.excerpt[0].trim())}` : ' the tests'}`);
      if (group.kind !== 'outsideSelection') return still;
      return group.reaches ? `${still}; the failure points at ${group.reaches}, outside the selection` : `${still}; the failure never reaches the selection`;
    }
  }
}

/** One next step per kind of failure, in the groups' order, each naming the front end's knob. */
function nextSteps(groups: readonly FailureGroup[], result: FixResult, names: AdviceNames): string[] {
  const steps: string[] = [];
  for (const group of groups) {
    if (group.kind === 'setup') steps.push(`make the test command run in the sandbox first (why it did not: ${names.log})`);
    if (group.kind === 'readOnly') steps.push(`make the test command write only inside the workspace or under /tmp${group.wrote ? ` (it wrote ${group.wrote}${SPAWN_WRAP.test(group.wrote) ? ': nyc 14 and older put their spawn-wrap shims there, nyc 15 does not' : ''})` : ''}`);
    if (group.kind === 'timeout') steps.push(`raise ${names.testTimeout} (runs were stopped at ${(group.seconds ?? 0).toFixed(1)} s), or check for candidates that loop`);
    if (group.kind === 'partial') steps.push(`check the tests still failing on their own: they fail on the unmodified code too, and where they fail for a reason of their own (another bug, the environment, a dependency's version) no change of the selection passes them; fix them first${names.failingTest ? `, or start from the failing test you mean (${names.failingTest})` : ''}`);
    if (group.kind === 'outsideSelection') steps.push(`${names.widen}${group.reaches ? ` to include ${group.reaches}` : ''}${names.failingTest ? `, or use ${names.failingTest}` : ''}`);
    if (group.kind === 'syntax' || group.kind === 'inSelection') steps.push(`more samples (${names.samples}) or a model provider (${names.provider})`);
    if (group.kind === 'failed') steps.push(`more samples (${names.samples}), a model provider (${names.provider}) or ${names.widen}`);
  }
  if (result.candidates.some((c) => c.flaky)) steps.push('make the flaky tests deterministic: candidates that pass only some runs are never verified');
  return [...new Set(steps)];
}

/** Why nothing passed and what to do: undefined when a candidate was verified (then there is nothing to advise). */
export function noFixAdvice(result: FixResult, names: AdviceNames): NoFixAdvice | undefined {
  if (result.verified.length > 0) return undefined;
  const baseline = result.baseline;
  if (result.stoppedEarly?.kind === 'baselineTimeout' && baseline) {
    const seconds = baseline.durationMs / 1000;
    const group: FailureGroup = { kind: 'baselineTimeout', numbers: [], tests: [], excerpt: [], seconds };
    return {
      conclusion: `the tests on the unmodified code timed out (stopped at ${seconds.toFixed(1)} s), so no candidate could be judged and the request stopped`,
      groups: [group],
      next: [`raise ${names.testTimeout} above the time the tests take (they did not finish in ${seconds.toFixed(1)} s)`],
    };
  }
  if (result.samples === 0) {
    return { conclusion: `no candidates were produced${result.lost.length ? ` (${result.lost[0].message})` : ''}`, groups: [], next: [`a model provider (${names.provider})`] };
  }
  const groups = failureGroups(result);
  const failed = groups.reduce((sum, g) => sum + g.numbers.length, 0);
  const flaky = result.candidates.filter((c) => c.flaky).length;
  let conclusion: string;
  if (groups.length === 1) {
    const all = failed === result.samples ? `all ${plural(failed, 'candidate')}` : plural(failed, 'candidate');
    conclusion = `${failed === 1 && failed === result.samples ? 'the only candidate' : all} ${groupVerb(groups[0], failed === 1)}`;
  } else if (groups.length > 1) {
    const who = (g: FailureGroup) => (g.numbers.length === 1 ? `#${g.numbers[0]}` : `${g.numbers.length} (#${g.numbers.join(', #')})`);
    conclusion = `${plural(failed, 'candidate')} failed in ${groups.length} ways: ${groups.map((g) => `${who(g)} ${groupVerb(g)}`).join('; ')}`;
  } else {
    conclusion = 'no candidate failed outright';
  }
  if (flaky > 0) conclusion += `; ${plural(flaky, 'candidate')} passed only some of their runs (flaky), so none is verified`;
  return { conclusion, groups, next: nextSteps(groups, result, names) };
}

/** The editor's names for the knobs. */
export const EDITOR_NAMES: AdviceNames = {
  testTimeout: 'verifiedFix.testTimeoutSeconds',
  samples: 'verifiedFix.samples',
  provider: 'verifiedFix.provider',
  widen: 'select more lines',
  log: 'Verified Fix: Show Log',
  failingTest: 'Suggest Verified Fix on the line the stack names (its Quick Fix, or the failed test\'s menu in the Testing view)',
};

/** The CLI's names for the knobs. */
export const CLI_NAMES: AdviceNames = {
  testTimeout: '--timeout',
  samples: '--samples',
  provider: '--provider openai-compatible',
  widen: 'widen --lines',
  log: 'run again with --verbose',
  failingTest: '--test-name with that test and no --file/--lines (the tool finds where to look)',
};
