// node --test: an inline reporter writes one JSON line per test, because Node 20's junit and TAP reporters omit passing tests' files.
import { joinId, ownNameCandidates, isInside, splitId, unique } from './ids';
import { boundMessage, jsonLines, str } from './reportText';
import { regexEscape, shellQuote, shellWords } from './shell';
import type { RunnerAdapter, TestOutcome, TestResult } from './types';
import { join } from 'node:path';
import { ASSERT_GUARD_FILE, ASSERT_GUARD_SOURCE } from './assertGuard';

/**
 * The reporter module (Node's custom reporter API: an async generator over test events). Events are per file in
 * definition order and a test's `test:start` precedes its verdict, so a stack per file gives each test its
 * ancestors. A line is written as soon as a test ends, so a run killed by a timeout still leaves the tests that ended.
 * Node names a file that fails to load after its own path; that becomes the file's container id, and what the
 * file printed on stderr (the syntax error) its message.
 */
const REPORTER = `import { relative, resolve } from "node:path";
export default async function* verifiedFixReporter(source) {
  const stacks = new Map();
  const stderr = new Map();
  for await (const { type, data } of source) {
    try {
      const file = data.file ? relative(process.cwd(), data.file) : "";
      if (type === "test:stderr") stderr.set(file, ((stderr.get(file) ?? "") + data.message).slice(0, 4000));
      if (type !== "test:start" && type !== "test:pass" && type !== "test:fail") continue;
      const depth = data.nesting | 0;
      const stack = stacks.get(file) ?? [];
      stacks.set(file, stack);
      stack.length = depth;
      const own = data.file && resolve(String(data.name)) === data.file ? [] : [String(data.name)];
      if (type === "test:start") { stack.push(...own); continue; }
      const error = data.details?.error;
      const cause = own.length === 0 && stderr.get(file) ? stderr.get(file) : error?.cause ?? error;
      yield JSON.stringify({
        file,
        path: [...stack, ...own].filter((name) => typeof name === "string"),
        outcome: data.skip !== undefined || data.todo !== undefined ? "skipped" : type === "test:pass" ? "passed" : "failed",
        suite: data.details?.type === "suite",
        message: error === undefined ? undefined : String(cause?.stack ?? cause?.message ?? cause).slice(0, 4000),
      }) + "\\n";
    } catch {
      // one odd event must not cost the rest of the report
    }
  }
}
`;

// Loaded from a data: URL so that nothing has to be written into the copy or next to the report: Node imports
// reporters through its ESM loader, which accepts data: URLs (checked on Node 20.20). Only what a URL would read
// otherwise is escaped (line breaks are dropped by URL parsing; `%`, `#`, `?` mean something), to keep logs readable.
const REPORTER_URL = `data:text/javascript,${REPORTER.replace(/^ +/gm, '').replace(/[%#?\r\n\t]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}`;

// The flag itself, not `--test-name-pattern` and the like.
const TEST_FLAG = /(^|\s)--test(?=\s|$)/;

/** How many reporters and destinations the user's command names (`--test-reporter X` or `--test-reporter=X`). */
function ownReporters(base: string): { reporters: number; destinations: number } {
  const words = shellWords(base);
  const count = (flag: string) => (Array.isArray(words) ? words.filter(({ value }) => value === flag || value.startsWith(`${flag}=`)).length : 0);
  return { reporters: count('--test-reporter'), destinations: count('--test-reporter-destination') };
}

/**
 * The tool's reporter to the report, and what keeps the user's reporters printing as they would: with none, the
 * spec reporter on stdout (for people and the output summary); with one and no destination, Node's own default
 * for it (stdout) made explicit, since two reporters need a destination each. Node pairs the n-th reporter with
 * the n-th destination, so the tool's pair goes first and the user's keep their order.
 */
function reporterArgs(base: string, reportPath: string): string[] {
  const own = ownReporters(base);
  const args = [`--test-reporter=${REPORTER_URL}`, `--test-reporter-destination=${reportPath}`];
  if (own.reporters === 0 && own.destinations === 0) args.push('--test-reporter=spec', '--test-reporter-destination=stdout');
  else if (own.reporters === 1 && own.destinations === 0) args.push('--test-reporter-destination=stdout');
  return args;
}

interface Row {
  readonly id: string;
  readonly outcome: TestOutcome;
  readonly suite: boolean;
  readonly message?: string;
}

function readRows(report: string): Row[] {
  const rows: Row[] = [];
  for (const line of jsonLines(report)) {
    const file = str(line.file);
    const outcome = str(line.outcome);
    if (file === undefined || !Array.isArray(line.path) || (outcome !== 'passed' && outcome !== 'failed' && outcome !== 'skipped')) continue;
    const path = line.path.filter((name): name is string => typeof name === 'string');
    rows.push({ id: joinId(file, path), outcome, suite: line.suite === true, message: outcome === 'failed' ? boundMessage(str(line.message)) : undefined });
  }
  return rows;
}

/**
 * Command: base's own flags, then the JSON-lines reporter to the report (see reporterArgs; the user's own
 * `--test-reporter`s and destinations stay), then base's files. Flags must come before the files: Node takes everything after the
 * first file as more files. `only` adds the ids' files (Node drops duplicates of base's own files) and
 * `--test-name-pattern=^(?:names)$`. Node 20.20 matches the pattern against a test's own name only (checked; later
 * releases also try ancestors and name joined by spaces, nodejs/node#51577), and a matching suite runs all its
 * tests; so the pattern lists own names, which every release matches, and a same-named test elsewhere in the same
 * files runs too. Node 20 reports the other tests as skipped; later releases leave them out. An id naming a whole
 * file drops the pattern so that all its tests can run. With an output folder, `--require` loads the assertion guard
 * (assertGuard.ts) there first; node hands its own options to every test file's process.
 */
export const nodeAdapter: RunnerAdapter = {
  name: 'node',
  outputFiles: { [ASSERT_GUARD_FILE]: ASSERT_GUARD_SOURCE },

  command(base, reportPath, only, outputDir) {
    const flag = TEST_FLAG.exec(base);
    if (!flag || only?.length === 0) return undefined;
    const args = [...(outputDir ? [`--require=${join(outputDir, ASSERT_GUARD_FILE)}`] : []), ...reporterArgs(base, reportPath)];
    const files: string[] = [];
    if (only) {
      const names: string[] = [];
      let wholeFile = false;
      for (const id of only) {
        const parts = splitId(id);
        files.push(parts.scope);
        if (parts.names) names.push(...ownNameCandidates(parts.names).map(regexEscape));
        else wholeFile = true;
      }
      if (!wholeFile) args.push(`--test-name-pattern=^(?:${unique(names).join('|')})$`);
    }
    const at = flag.index + flag[0].length;
    const tail = unique(files).map((file) => ` ${shellQuote(file)}`).join('');
    return `${base.slice(0, at)} ${args.map(shellQuote).join(' ')}${base.slice(at)}${tail}`;
  },

  // Each file is a child process of its own (isolation 'process', the default): how many run at once changes when
  // they run, not what they see. With isolation 'none' the files share one process and the number means nothing.
  concurrent(base, processes) {
    const flag = TEST_FLAG.exec(base);
    const words = shellWords(base);
    if (!flag || !Array.isArray(words) || words.some(({ value }) => /^--(?:experimental-)?test-(?:concurrency|isolation)(?:=|$)/.test(value))) return undefined;
    const at = flag.index + flag[0].length;
    return `${base.slice(0, at)} --test-concurrency=${processes}${base.slice(at)}`;
  },

  parse(report) {
    const rows = readRows(report);
    const failedTests = rows.filter((row) => !row.suite && row.outcome === 'failed');
    const results: TestResult[] = [];
    for (const row of rows) {
      // A suite's own verdict only matters when it failed with no test of its own failing: a throwing describe
      // body or hook. Otherwise its tests say everything.
      if (row.suite && (row.outcome !== 'failed' || failedTests.some((test) => isInside(test.id, row.id)))) continue;
      results.push(row.message ? { id: row.id, outcome: row.outcome, message: row.message } : { id: row.id, outcome: row.outcome });
    }
    return results;
  },
};
