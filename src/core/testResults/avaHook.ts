// Ava's side channel: a `--require` hook (through NODE_OPTIONS) that reads ava's own state-change events beside its reporter.
import { AVA_GUARD_SOURCE } from './assertGuard';

/** The hook's file name in the run's output folder. */
export const AVA_HOOK_FILE = 'verified-fix-ava-hook.cjs';

/** The variable naming the report the hook writes. */
export const AVA_REPORT_VARIABLE = 'VERIFIED_FIX_AVA_REPORT';

/**
 * The hook. Inert except in ava's own processes (NODE_OPTIONS reaches the tests' child processes too). In ava's
 * workers it runs the ava guard (assertGuard.ts) before any test file loads. In the main thread of ava's CLI it
 * patches `emit` of the `emittery` module ava itself loads (resolved from ava's CLI; `require` of that ES module on
 * Node 20.19+, else `import()`, which settles long before ava's first worker reports) and writes one JSON line per
 * `stateChange` event that ends a test: the test file (ava's TAP names only a shortened prefix of it, and none in a
 * one-file run), the title as `names`, the outcome, and for a failure its assertion, message and ava's own
 * formatted difference. A file that crashes, times out or imports no ava is one failed line with no title. Each
 * event passes through two emitters (the worker's and the run's), so each is written once. Todo tests are left
 * out: ava's TAP `# tests` count leaves them out too, and the printed count, the second witness, must never be
 * below the report's. Checked on ava 6 (its CLI path is ava 4's too).
 */
export const AVA_HOOK_SOURCE = `'use strict';
// Verified Fix: records ava's per-test results for the engine. Written by the engine; not part of the project.
(function () {
  var reportPath = process.env.${AVA_REPORT_VARIABLE};
  if (!reportPath) return;
  var fs = require('fs');
  var path = require('path');
  var guard = ${AVA_GUARD_SOURCE};
  // A worker thread of ava's CLI (its default) has no script in its argv: ava is the one the project installs.
  if (!require('worker_threads').isMainThread) {
    var installed;
    try { installed = /^(.*[\\\\/]ava)[\\\\/]/.exec(require.resolve('ava', { paths: [process.cwd()] })); } catch (e) { /* none there */ }
    return guard(installed ? installed[1] : undefined);
  }
  var cli;
  try { cli = fs.realpathSync(process.argv[1] || ''); } catch (e) { return; }
  var ava = /^(.*[\\\\/]ava)[\\\\/](?:entrypoints[\\\\/]cli\\.mjs|cli\\.js|lib[\\\\/]worker[\\\\/](base)\\.js)$/.exec(cli);
  if (!ava) return;
  // A worker process (workerThreads: false) runs ava's worker script.
  if (ava[2]) return guard(ava[1]);
  var fd;
  function write(row) {
    try { if (fd === undefined) fd = fs.openSync(reportPath, 'w'); fs.writeSync(fd, JSON.stringify(row) + '\\n'); } catch (e) { /* the run may not write there */ }
  }
  function relative(file) {
    var name = String(file || '');
    if (name.indexOf('file://') === 0) name = require('url').fileURLToPath(name);
    return path.relative(process.cwd(), name).split(path.sep).join('/');
  }
  function message(err) {
    if (!err || typeof err !== 'object') return String(err || '');
    var lines = [];
    if (err.assertion) lines.push(String(err.assertion));
    if (err.message) lines.push(String(err.message));
    (Array.isArray(err.formattedDetails) ? err.formattedDetails : []).forEach(function (d) { lines.push(String(d.label || '') + '\\n' + String(d.formatted || '')); });
    if (lines.length === 0 && err.stack) lines.push(String(err.stack));
    return lines.join('\\n').slice(0, 4000);
  }
  var ENDS = { 'uncaught-exception': 1, 'unhandled-rejection': 1, 'worker-failed': 1, 'missing-ava-import': 1 };
  var seen = new WeakSet();
  // A file that throws at load also ends its worker with exit 1: one failed line says it.
  var crashed = {};
  function record(event) {
    var file = relative(event.testFile);
    if (event.type === 'test-passed') write({ file: file, names: [event.title], outcome: 'passed' });
    else if (event.type === 'test-failed') write({ file: file, names: [event.title], outcome: 'failed', message: message(event.err) });
    else if (event.type === 'selected-test' && event.skip) write({ file: file, names: [event.title], outcome: 'skipped' });
    else if (event.type === 'hook-failed') write({ file: file, names: [event.title], outcome: 'failed', message: message(event.err) });
    else if (ENDS[event.type] && !crashed[file] && (crashed[file] = true)) write({ file: file, names: [], outcome: 'failed', message: event.type + (event.err ? ': ' + message(event.err) : event.nonZeroExitCode ? ': exit ' + event.nonZeroExitCode : event.signal ? ': ' + event.signal : '') });
    else if (event.type === 'timeout' && event.pendingTests) event.pendingTests.forEach(function (titles, pending) {
      titles.forEach(function (title) { write({ file: relative(pending), names: [title], outcome: 'failed', message: 'timed out (ava --timeout ' + event.period + ' ms)' }); });
    });
  }
  function patch(loaded) {
    var Emittery = loaded && (loaded.default || loaded);
    if (!Emittery || !Emittery.prototype || typeof Emittery.prototype.emit !== 'function') return;
    var emit = Emittery.prototype.emit;
    Emittery.prototype.emit = function (name, event) {
      if (name === 'stateChange' && event && typeof event === 'object' && !seen.has(event)) {
        seen.add(event);
        try { record(event); } catch (e) { /* never disturb ava */ }
      }
      return emit.apply(this, arguments);
    };
  }
  var emittery;
  try { emittery = require('module').createRequire(cli).resolve('emittery'); } catch (e) { return; }
  try { patch(require(emittery)); } catch (e) { import(require('url').pathToFileURL(emittery).href).then(patch, function () {}); }
})();
`;
