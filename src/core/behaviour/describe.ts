// The behaviour check in words, for the log, the CLI, the editor and the review bot: candidates named `#n` (1-based).
import type { BehaviourReport, DistinguishingInput, FixBehaviour } from '../contract/behaviour';

const name = (index: number) => `#${index + 1}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `fixes #1 and #2 differ on pageCount(10, 5): #1 → 2, #2 → 3`. */
export function pairLine(first: number, second: number, example: DistinguishingInput): string {
  return `fixes ${name(first)} and ${name(second)} differ on ${example.call}: ${name(first)} → ${example.first}, ${name(second)} → ${example.second}`;
}

/** What one fix changes against the unmodified function, with its shortest example. */
export function fixLine(report: BehaviourReport, fix: FixBehaviour): string {
  if (fix.problem) return `fix ${name(fix.index)} was not replayed: ${fix.problem}`;
  const told = report.failingTestInputs > 0;
  const changed = told ? fix.changedBeyondFailingTests : fix.changed;
  const besides = told ? 'besides the failing tests, this fix' : 'this fix';
  const of = `${changed} of ${fix.tried} inputs tried`;
  if (changed === 0) return `fix ${name(fix.index)}: ${besides} changes no result on the ${fix.tried} inputs tried`;
  const example = fix.examples[0];
  const eg = example ? `, e.g. ${example.call}: before ${example.first}, after ${example.second}` : '';
  return `fix ${name(fix.index)}: ${besides} changes the result on ${of}${told ? '' : ` (the failing tests' among them: ${report.reason ?? 'the runner gave no per-test results to tell them'})`}${eg}`;
}

/** "3 fixes, 2 behaviours: #1 #3 | #2", or that they agree on every input tried. */
export function groupsLine(report: BehaviourReport): string {
  const fixes = report.groups.reduce((n, g) => n + g.length, 0);
  const inputs = `${report.observed + report.generated} inputs tried (${report.observed} from the tests, ${report.generated} generated near them)`;
  if (report.groups.length === 1) {
    return fixes === 1 ? `1 fix, on ${inputs}` : `${fixes} fixes, 1 behaviour: they agree on every one of ${inputs}`;
  }
  return `${fixes} fixes, ${plural(report.groups.length, 'behaviour')} on ${inputs}: ${report.groups.map((g) => g.map(name).join(' ')).join(' | ')}`;
}

/** Every line of the report: the function, the groups, each pair's shortest distinguishing inputs, each fix. */
export function describeBehaviour(report: BehaviourReport): string[] {
  const fn = report.function ?? 'the selected function';
  if (report.status !== 'compared') {
    const what = report.status === 'notReplayable' ? `${fn} is not replayable` : report.status === 'noInputs' ? `no inputs of ${fn} to replay` : 'the check failed';
    return [`behaviour check: ${what}: ${report.reason ?? 'no reason given'}`];
  }
  const lines = [`behaviour check (${fn}): ${groupsLine(report)}`];
  // A recording run cut short: the inputs, or which are the failing tests', are fewer than a full run gives.
  if (report.reason) lines.push(`  incomplete: ${report.reason}`);
  for (const pair of report.pairs) {
    for (const example of pair.examples) lines.push(`  ${pairLine(pair.first, pair.second, example)}`);
    if (pair.differing > pair.examples.length) lines.push(`  (they differ on ${pair.differing} inputs in all)`);
  }
  for (const fix of report.fixes) lines.push(`  ${fixLine(report, fix)}`);
  return lines;
}

/** A short note for one verified fix (a list item, a diff title): its behaviour group and the input that sets it apart. */
export function behaviourNote(report: BehaviourReport | undefined, index: number): string | undefined {
  if (!report || report.status !== 'compared' || report.groups.length === 0) return undefined;
  const group = report.groups.findIndex((g) => g.includes(index));
  if (group < 0) return undefined;
  const fixes = report.groups.reduce((n, g) => n + g.length, 0);
  if (report.groups.length === 1) return fixes > 1 ? `same behaviour as every other fix on ${report.observed + report.generated} inputs` : undefined;
  const pair = report.pairs.find((p) => p.first === index || p.second === index) ?? report.pairs.find((p) => p.first === report.groups[group][0] || p.second === report.groups[group][0]);
  const example = pair?.examples[0];
  const mine = example && pair ? (pair.first === report.groups[group][0] ? example.first : example.second) : undefined;
  return `behaviour ${group + 1} of ${report.groups.length}${example ? `: ${example.call} → ${mine}` : ''}`;
}

/**
 * What the behaviour check says of several verified fixes: that they behave the same on every input tried, or the
 * shortest input on which they differ; undefined when it did not compare them all.
 */
export function behaviourSummary(count: number, report: BehaviourReport | undefined): string | undefined {
  if (!report || report.status !== 'compared') return undefined;
  // A fix that could not be replayed is in no group: what the groups say is not about every fix.
  if (report.groups.reduce((n, g) => n + g.length, 0) !== count) return undefined;
  if (report.groups.length === 1) return `${count} fixes pass and behave the same on all ${report.observed + report.generated} inputs tried`;
  const shortest = report.pairs
    .flatMap((p) => p.examples.slice(0, 1).map((e) => ({ p, e })))
    .sort((x, y) => x.e.call.length - y.e.call.length)[0];
  if (!shortest) return undefined;
  if (count === 2) return `${count} fixes pass; they differ on ${shortest.e.call}`;
  return `${count} fixes pass with ${report.groups.length} behaviours; ${name(shortest.p.first)} and ${name(shortest.p.second)} differ on ${shortest.e.call}`;
}

/** The line for several verified fixes: the behaviour check's summary, else that the tests do not decide between them. */
export function undecidedLine(count: number, report: BehaviourReport | undefined): string {
  return behaviourSummary(count, report) ?? `${count} different fixes pass: the tests do not decide between them, so read each`;
}
