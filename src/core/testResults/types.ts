// The shared vocabulary of per-test results: what one test did, and what an adapter for one runner must offer.

export type TestOutcome = 'passed' | 'failed' | 'skipped';

export type RunnerName = 'node' | 'jest' | 'vitest' | 'mocha' | 'pytest' | 'unittest' | 'go' | 'cargo' | 'tape' | 'tap' | 'ava';

/**
 * One test's verdict in one run. The id is stable across copies of the workspace (relative paths only) and
 * readable: the file (or package, or test binary) and the names leading to the test, joined by ` > `:
 * `test/range.test.js > inRange > includes hi`; pytest: its own node id `tests/test_a.py::TestX::test_y`;
 * go: `example.com/mod/pkg > TestName`; cargo: `crate (src/lib.rs) > module::test_name`.
 *
 * An id may also name a container (a file, suite, package) when the failure belongs to it rather than to a
 * test: a file that does not load, a `before` hook that throws, a package that does not build. Its tests'
 * ids start with the container's id and ` > ` (pytest: `::`).
 */
export interface TestResult {
  readonly id: string;
  readonly outcome: TestOutcome;
  /** The first lines of the failure (bounded to about 2 KB); only on failures, and only when the runner gave one. */
  readonly message?: string;
}

/** What Verified Fix knows about one test runner: how to make it write a report, and how to read that report. */
export interface RunnerAdapter {
  readonly name: RunnerName;
  /**
   * The shell command (for `/bin/sh -c`) that runs `base`, the runner invocation as resolveRunner returned it
   * (e.g. `node --test`, `npx jest`, `python3 -m pytest -q`), writing its report to `reportPath`, an absolute path
   * in a folder only this run writes to. With `only` (ids from an earlier parse of this runner) it runs those
   * tests and as few others as the runner allows: some runners can only narrow to a superset (see each adapter).
   * undefined when `only` is empty or cannot be expressed for this runner (or `base` selects its own tests), or
   * `base` is not this runner's.
   */
  command(base: string, reportPath: string, only?: readonly string[], outputDir?: string): string | undefined;
  /**
   * Files the command needs beside the run (a runner hook), written into the run's output folder before it starts;
   * `command` then gets that folder's absolute path as `outputDir`. Absent for runners whose own options write the report.
   */
  readonly outputFiles?: Readonly<Record<string, string>>;
  /**
   * `base` told to start `processes` test files at once, for a runner that runs each test file in a process of its
   * own and takes that number on its command line; undefined when `base` sets it (the user's number stands). Absent
   * for runners whose files share a process or that cannot be told.
   */
  concurrent?(base: string, processes: number): string | undefined;
  /**
   * The results in `report` (the content of the file at `reportPath` after the run, possibly cut short by a
   * timeout). `cwd` is the folder the run ran in: runners that report absolute paths are made relative to it.
   * Never throws; a missing, empty or unreadable report gives [] (judge that run by its exit code instead).
   */
  parse(report: string, cwd: string): TestResult[];
  /**
   * What in the run's own configuration ended it at a failure, as its report tells (mocha's root suite bails, from
   * `.mocharc` or `mocha.opts` too; pytest's maxfail, from addopts too): "bail", "maxfail=1". Undefined where it did
   * not, or the report cannot tell.
   */
  stopsEarly?(report: string): string | undefined;
}
