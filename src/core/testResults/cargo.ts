// cargo test: libtest's plain `test NAME ... ok|FAILED|ignored` lines, with cargo's `Running` lines naming each test binary.
import { joinId, splitId, unique } from './ids';
import { boundMessage } from './reportText';
import { shellQuote } from './shell';
import type { RunnerAdapter, TestOutcome, TestResult } from './types';

const CARGO_TEST = /^((?:\S+=\S*\s+)*\S*\bcargo\s+test)(?=\s|$)/;
// `Running unittests src/lib.rs (target/debug/deps/demo-1a2b…)`, `Running tests/api.rs (target/debug/deps/api-3c4d…)`.
const RUNNING = /^\s*Running (?:unittests )?(\S+) \((?:.*[\\/])?([^\\/]+?)(?:-[0-9a-f]{8,})?(?:\.exe)?\)\s*$/;
const DOC_TESTS = /^\s*Doc-tests (\S+)\s*$/;
const RESULT = /^test (.+?) \.\.\. (ok|FAILED|ignored\b.*)$/;
// libtest and rustdoc add these to the names they print; the names that filters match are without them.
const NAME_SUFFIX = / - (?:should panic|compile fail)$/;
const FAILURE_HEADER = /^---- (.+?) stdout ----$/;

/**
 * The binary's label in ids: its name and source, `demo (src/lib.rs)`, `api (tests/api.rs)`, `demo (doc)`; the
 * library and the binary of one package share a name, and packages of a workspace share `src/lib.rs`.
 */
function labelOf(line: string): string | undefined {
  const running = RUNNING.exec(line);
  if (running) return `${running[2]} (${running[1]})`;
  const doc = DOC_TESTS.exec(line);
  return doc ? `${doc[1]} (doc)` : undefined;
}

/**
 * Command: `cargo test --no-fail-fast …base… > REPORT 2>&1`, so that every test binary runs even after one fails,
 * and both streams (the test lines on stdout, the `Running` lines on stderr) reach the report in order; the JSON
 * format is nightly-only. `only` adds `-- --exact NAMES`: every test binary runs with that filter, so a same-named
 * test in another binary runs too. Doc-test names do not match `--exact` (checked with cargo 1.95), so with a
 * doc-test id the names are substring filters instead, which also run tests whose names contain them.
 */
export const cargoAdapter: RunnerAdapter = {
  name: 'cargo',

  command(base, reportPath, only) {
    const head = CARGO_TEST.exec(base);
    if (!head || only?.length === 0) return undefined;
    let rest = base.slice(head[1].length);
    if (only) {
      const ids = only.map(splitId);
      const names = unique(ids.map((id) => id.names).filter(Boolean));
      if (names.length < ids.length) return undefined; // a binary as a whole: cargo has no such ids
      const exact = ids.every((id) => !id.scope.endsWith('(doc)'));
      rest += `${/(^|\s)--(\s|$)/.test(rest) ? '' : ' --'}${exact ? ' --exact' : ''} ${names.map(shellQuote).join(' ')}`;
    }
    return `${head[1]} --no-fail-fast${rest} > ${shellQuote(reportPath)} 2>&1`;
  },

  parse(report) {
    const verdicts: Array<{ id: string; outcome: TestOutcome }> = [];
    const messages = new Map<string, string[]>();
    let label = '';
    let failure: string[] | undefined;
    for (const line of report.split(/\r?\n/)) {
      const next = labelOf(line);
      if (next) {
        label = next;
        failure = undefined;
        continue;
      }
      const result = RESULT.exec(line);
      if (result) {
        const outcome = result[2] === 'ok' ? 'passed' : result[2] === 'FAILED' ? 'failed' : 'skipped';
        verdicts.push({ id: joinId(label, [result[1].replace(NAME_SUFFIX, '')]), outcome });
        continue;
      }
      const header = FAILURE_HEADER.exec(line);
      if (header) {
        failure = [];
        messages.set(joinId(label, [header[1].replace(NAME_SUFFIX, '')]), failure);
      } else if (failure && (line === 'failures:' || line.startsWith('test result:'))) failure = undefined;
      else failure?.push(line);
    }
    return verdicts.map(({ id, outcome }): TestResult => {
      const message = outcome === 'failed' ? boundMessage(messages.get(id)?.join('\n')) : undefined;
      return message ? { id, outcome, message } : { id, outcome };
    });
  },
};
