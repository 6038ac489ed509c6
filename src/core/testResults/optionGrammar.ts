// Which options of each runner take a value, so that the paths a test command names can be told from option values.
import type { RunnerName } from './types';

/** How one runner's command line reads: the options that take the next word as their value, and those that do not. */
export interface OptionGrammar {
  /** Options whose value is the next word (unless written `--opt=value`). */
  readonly values: readonly string[];
  /** Options known to take no value. `--no-…` options take none either. */
  readonly flags: readonly string[];
  /** Single-letter options may be bundled (`-vx`) and a value glued on (`-kfoo`): pytest's argparse. */
  readonly bundles?: boolean;
  /** Words after this one are not the runner's (cargo passes them to the test binaries, go to the test binary). */
  readonly passThrough?: readonly string[];
  /** Options whose value names test files, as a bare word would (mocha's `--spec`): dropped with their value. */
  readonly selects?: readonly string[];
}

const NODE_VALUES = ['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C', '--env-file', '--input-type', '--test-name-pattern', '--test-skip-pattern', '--test-concurrency', '--test-timeout', '--test-shard', '--test-coverage-include', '--test-coverage-exclude', '--watch-path', '--inspect-port', '--title', '--stack-size', '--max-old-space-size', '--disable-warning', '--localstorage-file'];
const NODE_FLAGS = ['--test', '--test-only', '--test-force-exit', '--experimental-test-coverage', '--experimental-test-module-mocks', '--experimental-vm-modules', '--experimental-strip-types', '--experimental-transform-types', '--experimental-default-type', '--enable-source-maps', '--expose-gc', '--trace-warnings', '--trace-uncaught', '--trace-deprecation', '--throw-deprecation', '--pending-deprecation', '--preserve-symlinks', '--preserve-symlinks-main', '--inspect', '--inspect-brk', '--unhandled-rejections=strict', '--frozen-intrinsics', '--abort-on-uncaught-exception'];

const MOCHA_VALUES = ['--require', '-r', '--reporter', '-R', '--reporter-option', '--reporter-options', '-O', '--ui', '-u', '--timeout', '-t', '--timeouts', '--slow', '-s', '--config', '--package', '--extension', '--ignore', '--exclude', '--file', '--retries', '--jobs', '-j', '--node-option', '-n', '--loader', '--watch-files', '--watch-ignore', '--global', '--globals'];
const MOCHA_FLAGS = ['--recursive', '--exit', '--bail', '-b', '--parallel', '-p', '--full-trace', '--check-leaks', '--color', '-c', '--colors', '-C', '--forbid-only', '--forbid-pending', '--inline-diffs', '--async-only', '-A', '--allow-uncaught', '--sort', '-S', '--delay', '--diff', '--dry-run', '--fail-zero', '--pass-on-failing-test-suite', '--enable-source-maps', '--expose-gc', '--inspect', '--inspect-brk', '--experimental-vm-modules', '--trace-warnings'];

const JEST_VALUES = ['--config', '-c', '--testPathIgnorePatterns', '--reporters', '--maxWorkers', '-w', '--testTimeout', '--selectProjects', '--roots', '--coverageDirectory', '--collectCoverageFrom', '--coverageProvider', '--coverageReporters', '--env', '--testEnvironment', '--rootDir', '--shard', '--seed', '--testRunner', '--globalSetup', '--globalTeardown', '--setupFiles', '--setupFilesAfterEnv', '--testMatch', '--testRegex', '--moduleDirectories', '--modulePaths', '--cacheDirectory', '--maxConcurrency', '--workerIdleMemoryLimit', '--filter', '--testLocationInResults', '--outputFile'];
const JEST_FLAGS = ['--ci', '--runInBand', '-i', '--coverage', '--collectCoverage', '--bail', '-b', '--verbose', '--silent', '--passWithNoTests', '--detectOpenHandles', '--forceExit', '--cache', '--colors', '--noStackTrace', '--logHeapUsage', '--clearMocks', '--resetMocks', '--restoreMocks', '--resetModules', '--errorOnDeprecated', '--useStderr', '--watchman', '--randomize', '--injectGlobals', '--expand', '-e', '--debug', '--detectLeaks', '--notify', '--json', '--all', '--updateSnapshot', '-u', '--showSeed'];

const VITEST_VALUES = ['--config', '-c', '--root', '-r', '--dir', '--project', '--environment', '--pool', '--reporter', '--testTimeout', '--hookTimeout', '--maxWorkers', '--minWorkers', '--shard', '--mode', '--exclude', '--bail', '--retry', '--maxConcurrency', '--workspace', '--outputFile', '--changed', '--silent'];
const VITEST_FLAGS = ['--run', '--globals', '--coverage', '--passWithNoTests', '--allowOnly', '--isolate', '--typecheck', '--ui', '--dom', '--update', '-u', '--logHeapUsage', '--clearScreen', '--expandSnapshotDiff', '--disableConsoleIntercept', '--no-file-parallelism', '--fileParallelism', '--sequence.concurrent', '--sequence.shuffle', '--inspect', '--inspect-brk'];

const PYTEST_VALUES = ['-k', '-m', '-p', '-c', '-o', '-r', '-n', '-W', '--rootdir', '--confcutdir', '--basetemp', '--ignore', '--ignore-glob', '--deselect', '--maxfail', '--tb', '--durations', '--durations-min', '--cov', '--cov-report', '--cov-config', '--cov-fail-under', '--import-mode', '--log-level', '--log-cli-level', '--log-format', '--log-file', '--capture', '--color', '--code-highlight', '--doctest-glob', '--doctest-report', '--timeout', '--dist', '--maxprocesses', '--override-ini', '--inifile', '--pythonwarnings', '--junit-prefix', '--show-capture', '--verbosity', '--reruns', '--randomly-seed', '--asyncio-mode'];
const PYTEST_FLAGS = ['-v', '-q', '-x', '-s', '-l', '-vv', '-qq', '--verbose', '--quiet', '--exitfirst', '--doctest-modules', '--doctest-continue-on-failure', '--strict-markers', '--strict-config', '--strict', '--showlocals', '--disable-warnings', '--disable-pytest-warnings', '--runxfail', '--pyargs', '--noconftest', '--continue-on-collection-errors', '--full-trace', '--no-header', '--no-summary', '--setup-show', '--import-mode=importlib', '--cache-clear', '--assert=plain', '--trace', '--pdb', '--benchmark-disable', '--no-cov', '--cov-append', '--cov-branch', '--forked', '--lsof'];

const GO_VALUES = ['-count', '-timeout', '-tags', '-p', '-parallel', '-cpu', '-covermode', '-coverprofile', '-coverpkg', '-bench', '-benchtime', '-o', '-exec', '-gcflags', '-ldflags', '-asmflags', '-mod', '-modfile', '-shuffle', '-vet', '-skip', '-C', '-pkgdir', '-fuzz', '-fuzztime', '-blockprofile', '-cpuprofile', '-memprofile', '-mutexprofile', '-trace', '-outputdir', '-overlay', '-toolexec', '-compiler', '-installsuffix', '-buildmode', '-buildvcs', '-pgo'];
const GO_FLAGS = ['-v', '-short', '-race', '-msan', '-asan', '-cover', '-failfast', '-json', '-trimpath', '-benchmem', '-a', '-n', '-x', '-i', '-work', '-linkshared', '-fullpath'];

const CARGO_VALUES = ['--package', '-p', '--features', '-F', '--exclude', '--target', '--target-dir', '--manifest-path', '--profile', '--jobs', '-j', '--color', '--config', '-Z', '--message-format', '--lib-name', '--test', '--bin', '--example', '--bench'];
const CARGO_FLAGS = ['--workspace', '--all', '--all-features', '--no-default-features', '--release', '-r', '--locked', '--frozen', '--offline', '--verbose', '-v', '--no-run', '--no-fail-fast', '--lib', '--bins', '--tests', '--benches', '--examples', '--all-targets', '--doc', '--ignore-rust-version', '--future-incompat-report', '--keep-going', '--timings'];

/**
 * The option grammar of each runner whose stage 1 is narrowed here. Tape, node-tap and ava are absent: their adapters
 * put the selected files in place of the command's own (tape.ts, tap.ts, ava.ts), so there is nothing left to narrow.
 */
export const OPTION_GRAMMARS: Partial<Record<RunnerName, OptionGrammar>> = {
  node: { values: NODE_VALUES, flags: NODE_FLAGS },
  mocha: { values: MOCHA_VALUES, flags: MOCHA_FLAGS, selects: ['--spec'] },
  jest: { values: JEST_VALUES, flags: JEST_FLAGS },
  vitest: { values: VITEST_VALUES, flags: VITEST_FLAGS },
  pytest: { values: PYTEST_VALUES, flags: PYTEST_FLAGS, bundles: true },
  go: { values: GO_VALUES, flags: GO_FLAGS, passThrough: ['-args', '--args'] },
  cargo: { values: CARGO_VALUES, flags: CARGO_FLAGS, passThrough: ['--'] },
};
