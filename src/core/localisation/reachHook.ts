// Which functions each process of the baseline ran, at almost no cost: a `--require` hook (through NODE_OPTIONS) that
// asks V8 for binary function coverage (ran or not, no block counters), where NODE_V8_COVERAGE's block counts slowed
// a loop-heavy suite by half (bench: reach). The report has NODE_V8_COVERAGE's shape, so the same reader reads it.
import { join } from 'node:path';
import type { RunOptions } from '../execution/executor';
import type { ReporterRun } from '../testResults/reporterCommand';
import { shellQuote, withRequireHook } from '../testResults/shell';
import { V8_COVERAGE_VARIABLE } from './v8Coverage';

/** The hook's file name in the run's output folder. */
export const REACH_HOOK_FILE = 'verified-fix-reach-hook.cjs';

/** The variable naming the folder each process writes its `coverage-….json` into. */
export const REACH_VARIABLE = 'VERIFIED_FIX_REACH';

/**
 * The hook. In every node process of the run it opens an in-process inspector session before any test file loads,
 * starts precise coverage with `callCount: false, detailed: false` (V8 keeps the functions' ran bits, optimised code
 * stays optimised) and, at exit, writes the scripts of the process that are neither node's own nor a package's, as
 * `{ result }`. It stays out of the way: no global, nothing printed, any failure leaves the process as it was (that
 * process then writes no report, and the engine runs the full command). A process that already collects coverage
 * (NODE_V8_COVERAGE, a debugger) is left alone: switching V8's mode would cut its block counts.
 */
export const REACH_HOOK_SOURCE = `'use strict';
// Verified Fix: records which functions this process ran, for the engine. Written by the engine; not part of the project.
(function () {
  var out = process.env.${REACH_VARIABLE};
  if (!out || process.env.NODE_V8_COVERAGE) return;
  var session;
  try {
    var inspector = require('inspector');
    if (inspector.url()) return;
    session = new inspector.Session();
    session.connect();
    session.post('Profiler.enable');
    session.post('Profiler.startPreciseCoverage', { callCount: false, detailed: false });
  } catch (e) { return; }
  var fs = require('fs');
  var path = require('path');
  var hook = path.basename(__filename);
  var thread = 0;
  try { thread = require('worker_threads').threadId; } catch (e) { /* no worker threads */ }
  process.on('exit', function () {
    try {
      var taken;
      session.post('Profiler.takePreciseCoverage', function (error, result) { taken = error ? undefined : result; });
      if (!taken || !Array.isArray(taken.result)) return;
      var own = taken.result.filter(function (s) {
        return typeof s.url === 'string' && s.url !== '' && !/^node:/.test(s.url) && !/[\\\\/]node_modules[\\\\/]/.test(s.url) && s.url.slice(-hook.length) !== hook;
      });
      fs.writeFileSync(path.join(out, 'coverage-reach-' + process.pid + '-' + thread + '.json'), JSON.stringify({ result: own }));
    } catch (e) { /* the run may not write there */ }
  });
})();
`;

/** The baseline's command with the hook loaded into every node process, each writing into the run's output folder. */
export function withReachHook(full: ReporterRun): Required<Pick<RunOptions, 'command' | 'outputFiles'>> {
  return {
    // Where NODE_OPTIONS cannot quote the hook's path: node's own coverage (slower, the same report).
    command: (report, out = '') => withRequireHook(full.command(report, out), REACH_VARIABLE, out, join(out, REACH_HOOK_FILE)) ?? `${V8_COVERAGE_VARIABLE}=${shellQuote(out)} ${full.command(report, out)}`,
    outputFiles: { ...full.outputFiles, [REACH_HOOK_FILE]: REACH_HOOK_SOURCE },
  };
}
