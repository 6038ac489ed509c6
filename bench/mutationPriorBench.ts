// `npm run bench:prior`: where the mutation generator puts the first fix that passes the tests, on the buggy functions
// of test/unit/helpers/bugCorpus.ts, with the lines ranked as the engine ranks them (per-test V8 coverage, Ochiai).
// Runs in one process: the tests are pure functions, so each mutant is judged in a fresh V8 context, not a sandbox.
import { Session } from 'node:inspector/promises';
import { runInNewContext, Script, createContext } from 'node:vm';
import { generateMutants } from '../src/core/mutation/generator';
import { lineRangeToOffsets } from '../src/core/base/textRange';
import { ochiai, rankLines, tellsApart } from '../src/core/localisation/ochiai';
import type { TestSpectrum } from '../src/core/localisation/ochiai';
import { v8LineHits } from '../src/core/localisation/v8Coverage';
import { selectionLines } from '../src/core/localisation/localise';
import { BUG_CASES } from '../test/unit/helpers/bugCorpus';
import type { BugCase } from '../test/unit/helpers/bugCorpus';

const FILE = 'src/case.js';
let scriptCount = 0;

/** Whether `expression` gives `expected` (JSON) with `text` loaded; a throw or a loop that runs away is a failure. */
function passes(text: string, expression: string, expected: string): boolean {
  try {
    const context = createContext({});
    new Script(text, { filename: `/bench/${scriptCount++}/${FILE}` }).runInContext(context, { timeout: 200 });
    return runInNewContext(`JSON.stringify(${expression})`, context, { timeout: 200 }) === expected;
  } catch {
    return false;
  }
}

/** Each test's lines of `text` (precise V8 coverage, as NODE_V8_COVERAGE records it) and whether it failed. */
async function spectra(session: Session, bug: BugCase): Promise<TestSpectrum[]> {
  const out: TestSpectrum[] = [];
  for (const [expression, expected] of bug.tests) {
    await session.post('Profiler.takePreciseCoverage');
    const failed = !passes(bug.text, expression, expected);
    const report = await session.post('Profiler.takePreciseCoverage');
    out.push({ failed, lines: v8LineHits([report], FILE, bug.text) ?? new Set() });
  }
  return out;
}

/** The lines as localisation hands them to the generator; none when coverage cannot tell them apart. */
function hintLines(bug: BugCase, tests: readonly TestSpectrum[]): number[] {
  const { start, end } = lineRangeToOffsets(bug.text, bug.lines[0], bug.lines[1]);
  const lines = selectionLines(bug.text, start, end).filter((l) => !/^[\s{}()[\];,]*$/.test(bug.text.split('\n')[l - 1]));
  const scores = ochiai(tests);
  return tellsApart(lines, scores) ? rankLines(lines, scores, new Map()) : [];
}

interface Row {
  readonly name: string;
  readonly bugClass: string;
  readonly hints: string;
  /** 1-based place of the intended fix, and of the first mutant that passes every test (0: not among the mutants). */
  readonly intended: number;
  readonly firstPassing: number;
}

async function measure(session: Session, bug: BugCase): Promise<Row> {
  const hints = hintLines(bug, await spectra(session, bug));
  // `DEBUG_PRIOR=clamp npm run bench:prior` lists that case's first mutants.
  const debug = process.env.DEBUG_PRIOR === bug.name;
  const { start, end } = lineRangeToOffsets(bug.text, bug.lines[0], bug.lines[1]);
  const { mutants } = await generateMutants({ languageId: 'javascript', fileText: bug.text, start, end, hintLines: hints });
  const fixed = bug.text.split('\n').map((l, i) => (i + 1 === bug.fixLine ? l.replace(bug.bug, bug.fix) : l)).join('\n');
  const whole = (text: string) => bug.text.slice(0, start) + text + bug.text.slice(end);
  if (debug) mutants.slice(0, 25).forEach((m, i) => console.log(i + 1, m.family, m.label));
  const intended = mutants.findIndex((m) => whole(m.text) === fixed) + 1;
  const firstPassing = mutants.findIndex((m, i) => i < 200 && bug.tests.every(([e, x]) => passes(whole(m.text), e, x))) + 1;
  return { name: bug.name, bugClass: bug.bugClass, hints: hints.join(',') || '(tied)', intended, firstPassing };
}

async function main(): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const rows: Row[] = [];
  for (const bug of BUG_CASES) rows.push(await measure(session, bug));
  session.disconnect();
  const place = (n: number) => (n === 0 ? '-' : String(n));
  console.log('case         class                 hint lines     intended  first passing');
  for (const r of rows) console.log(`${r.name.padEnd(12)} ${r.bugClass.padEnd(21)} ${r.hints.padEnd(14)} ${place(r.intended).padStart(8)}  ${place(r.firstPassing).padStart(13)}`);
  const within = (k: number) => rows.filter((r) => r.firstPassing > 0 && r.firstPassing <= k).length;
  console.log(`verified within 10 samples: ${within(10)} of ${rows.length}; within 5: ${within(5)}; within 20: ${within(20)}`);
  const median = [...rows.map((r) => r.firstPassing || 999)].sort((a, b) => a - b)[Math.floor(rows.length / 2)];
  console.log(`median place of the first passing mutant: ${median}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
