// Jest's side channel: a `--testResultsProcessor` module that writes the report and hands jest's results back untouched.

/** The processor's file name in the run's output folder. */
export const JEST_PROCESSOR_FILE = 'verified-fix-jest-processor.cjs';

/** The variable naming the report the processor writes. */
export const JEST_REPORT_VARIABLE = 'VERIFIED_FIX_JEST_REPORT';

/**
 * The processor. Jest calls it once, in its main process, with the aggregated results of every project, after the
 * reporters ran and before `--json` would print; it returns them as it got them. It writes them in `--json`'s shape
 * (parseJestJson reads both). Why not a reporter or `--json`: `--reporters` on the command line replaces the ones
 * in the user's config, and `--json` moves what the tests print from stdout to stderr. Jest takes
 * `--testResultsProcessor` on the command line (checked on 29); it replaces one the config names, which runner.ts checks for.
 */
export const JEST_PROCESSOR_SOURCE = `'use strict';
// Verified Fix: records jest's per-test results for the engine. Written by the engine; not part of the project.
var fs = require('fs');
module.exports = function verifiedFixProcessor(results) {
  try {
    var reportPath = process.env.${JEST_REPORT_VARIABLE};
    if (reportPath && results && Array.isArray(results.testResults)) {
      var files = results.testResults.map(function (file) {
        var tests = Array.isArray(file.testResults) ? file.testResults : [];
        var failed = Boolean(file.failureMessage || file.testExecError || file.numFailingTests > 0);
        return {
          name: file.testFilePath,
          status: failed ? 'failed' : 'passed',
          message: String(file.failureMessage || (file.testExecError && file.testExecError.message) || '').slice(0, 4000),
          assertionResults: tests.map(function (t) {
            return { ancestorTitles: t.ancestorTitles, title: t.title, status: t.status, failureMessages: (t.failureMessages || []).map(function (m) { return String(m).slice(0, 4000); }) };
          }),
        };
      });
      fs.writeFileSync(reportPath, JSON.stringify({ testResults: files }));
    }
  } catch (e) { /* never change what jest reports */ }
  return results;
};
`;
