// go test: `-json` events written to the report; a selection is the packages plus one `-run` regex of top-level test names.
import { joinId, splitId, unique } from './ids';
import { boundMessage, jsonLines, str } from './reportText';
import { regexEscape, shellQuote } from './shell';
import type { RunnerAdapter, TestOutcome, TestResult } from './types';

// Where flags can go: right after the subcommand, since everything after the package list goes to the test binary.
const GO_TEST = /^((?:\S+=\S*\s+)*\S*\bgo\s+test)(?=\s|$)/;
// Lines the test framework writes around a test's own output.
const FRAME_LINE = /^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)|--- (?:PASS|FAIL|SKIP):)/;

interface TestState {
  outcome?: TestOutcome;
  output: string[];
}

/**
 * Command: `go test -json [-run '^(?:A|B)$'] …base's flags and packages… [PACKAGES] > REPORT`. The events go to the
 * report rather than to stdout, whose tail the engine keeps is too short for `-json`; build errors stay on stderr.
 * `only` adds the ids' packages (by import path) in place of a trailing `./...`; the regex lists the top-level test
 * names and applies to every listed package, so a same-named test in another listed package runs too. A package id
 * (it failed as a whole) drops the regex so that all its tests run.
 */
export const goAdapter: RunnerAdapter = {
  name: 'go',

  command(base, reportPath, only) {
    const head = GO_TEST.exec(base);
    if (!head || only?.length === 0) return undefined;
    const flags = ['-json'];
    let rest = base.slice(head[1].length);
    if (only) {
      const packages: string[] = [];
      const names: string[] = [];
      let wholePackage = false;
      for (const id of only) {
        const { scope, names: test } = splitId(id);
        packages.push(scope);
        if (test) names.push(regexEscape(test));
        else wholePackage = true;
      }
      if (!wholePackage) flags.push('-run', `^(?:${unique(names).join('|')})$`);
      rest = `${rest.replace(/\s+\.\/\.\.\.$/, '')} ${unique(packages).map(shellQuote).join(' ')}`;
    }
    return `${head[1]} ${flags.map(shellQuote).join(' ')}${rest} > ${shellQuote(reportPath)}`;
  },

  parse(report) {
    // Top-level tests only: a subtest's failure fails its parent, and -run selects top-level names.
    const tests = new Map<string, TestState>();
    const packages = new Map<string, { failed: boolean; output: string[] }>();
    for (const event of jsonLines(report)) {
      // Go 1.24+ reports build output under `ImportPath`, `pkg [pkg.test]`: the same package.
      const pkg = str(event.Package) ?? str(event.ImportPath)?.replace(/ \[.*\]$/, '');
      const action = str(event.Action);
      if (!pkg || !action) continue;
      const test = str(event.Test);
      const packageState = packages.get(pkg) ?? { failed: false, output: [] };
      packages.set(pkg, packageState);
      if (test === undefined) {
        if (action === 'fail') packageState.failed = true;
        else if (action === 'output' || action === 'build-output') packageState.output.push(str(event.Output) ?? '');
        continue;
      }
      if (test.includes('/')) continue;
      const id = joinId(pkg, [test]);
      const state = tests.get(id) ?? { output: [] };
      tests.set(id, state);
      if (action === 'pass') state.outcome = 'passed';
      else if (action === 'fail') state.outcome = 'failed';
      else if (action === 'skip') state.outcome = 'skipped';
      else if (action === 'output') state.output.push(str(event.Output) ?? '');
    }
    const results: TestResult[] = [];
    const failedPackages = new Set<string>();
    for (const [id, state] of tests) {
      const pkg = splitId(id).scope;
      // A test that started and never ended in a failed package took the package down (os.Exit, a crash, a timeout).
      const crashed = state.outcome === undefined && packages.get(pkg)?.failed === true;
      const outcome = crashed ? 'failed' : state.outcome;
      if (!outcome) continue;
      if (outcome === 'failed') failedPackages.add(pkg);
      const output = [...state.output.filter((line) => !FRAME_LINE.test(line)), ...(crashed ? packages.get(pkg)?.output ?? [] : [])];
      const message = outcome === 'failed' ? boundMessage(output.join('')) : undefined;
      results.push(message ? { id, outcome, message } : { id, outcome });
    }
    for (const [pkg, state] of packages) {
      if (!state.failed || failedPackages.has(pkg)) continue;
      const message = boundMessage(state.output.join(''));
      results.push(message ? { id: pkg, outcome: 'failed', message } : { id: pkg, outcome: 'failed' });
    }
    return results;
  },
};
