// Mocha's side channel: a `--require` hook (through NODE_OPTIONS) that records the runner's events in whatever reporter the user chose.

/** The hook's file name in the run's output folder. */
export const MOCHA_HOOK_FILE = 'verified-fix-mocha-hook.cjs';

/** The variable naming the report the hook writes; the hook removes it as soon as mocha's runner loads. */
export const MOCHA_REPORT_VARIABLE = 'VERIFIED_FIX_MOCHA_REPORT';

/**
 * The variable naming where the hook writes every `require` the run made (`parent\tchild` lines, relative to the
 * working folder; builtins as named): which test files load the target module, directly or through other modules.
 * Set only on the baseline's run when the reaching tests are wanted; the claiming process removes it too.
 */
export const MOCHA_LOADS_VARIABLE = 'VERIFIED_FIX_MOCHA_LOADS';

/** The loads file's name in the run's output folder. */
export const MOCHA_LOADS_FILE = 'verified-fix-mocha-loads.txt';

/**
 * The hook. Loaded into every node process of the run (NODE_OPTIONS), it stays inert until a process loads mocha's
 * `lib/runner.js`; then it wraps `Runner.prototype.emit` (which the parallel runner inherits, and which mocha 1.x
 * to 11.x all have) and writes the json reporter's `{passes, failures, pending}` at 'end' and, if 'end' never
 * comes, at exit. The user's reporter, `--bail`, `--require`, `.mocharc*` and `mocha.opts` are left as they are,
 * so the printed summary stays a second witness. Why not a reporter: mocha takes one reporter, and `output=` for
 * the json one only exists from 9.1. The first process that loads the runner claims the report and removes the
 * variable, so `--parallel` workers and mocha runs nested inside tests write nothing. It defines no global (the user
 * may run with `--check-leaks`) and keeps messages and diffs short.
 */
export const MOCHA_HOOK_SOURCE = `'use strict';
// Verified Fix: records mocha's per-test results for the engine. Written by the engine; not part of the project.
(function () {
  var reportPath = process.env.${MOCHA_REPORT_VARIABLE};
  if (!reportPath) return;
  var loadsPath = process.env.${MOCHA_LOADS_VARIABLE};
  var Module = require('module');
  var fs = require('fs');
  var path = require('path');
  var edges = loadsPath ? Object.create(null) : undefined;
  function relative(file) { return path.isAbsolute(file) ? path.relative(process.cwd(), file) : file; }
  function writeLoads() {
    try { fs.writeFileSync(loadsPath, Object.keys(edges).join('\\n')); } catch (e) { /* the run may not write there */ }
  }
  var load = Module._load;
  var found = false;
  var RUNNER = /[\\\\/]mocha[\\\\/]lib[\\\\/]runner\\.js$/;
  var LIMIT = 2000;
  function resolved(request, parent) {
    try { return Module._resolveFilename(request, parent); } catch (e) { return ''; }
  }
  function text(value) {
    if (value === undefined || value === null) return undefined;
    var s = typeof value === 'string' ? value : safeJson(value);
    return s === undefined ? undefined : s.slice(0, LIMIT);
  }
  function safeJson(value) {
    try { var s = JSON.stringify(value); return s === undefined ? String(value) : s; } catch (e) { return String(value); }
  }
  Module._load = function (request, parent) {
    var exported = load.apply(this, arguments);
    if (edges && typeof request === 'string' && parent && typeof parent.filename === 'string') {
      try {
        var child = resolved(request, parent) || request;
        edges[relative(parent.filename) + '\\t' + relative(child)] = 1;
      } catch (e) { /* never change how the tests run */ }
    }
    if (!found && typeof request === 'string' && /runner/.test(request) && RUNNER.test(resolved(request, parent))) {
      found = true; // the wrapper stays (a later --require may have wrapped it in turn), passing through from now on
      delete process.env.${MOCHA_REPORT_VARIABLE};
      delete process.env.${MOCHA_LOADS_VARIABLE};
      if (edges) process.on('exit', writeLoads);
      if (exported && exported.prototype && typeof exported.prototype.emit === 'function') observe(exported);
    }
    return exported;
  };
  function observe(Runner) {
    var emit = Runner.prototype.emit;
    var report = { passes: [], failures: [], pending: [] };
    var started = false;
    function entry(test, err) {
      var title = String(test.title);
      var full = typeof test.fullTitle === 'function' ? String(test.fullTitle()) : title;
      var file = test.file || (test.parent && test.parent.file) || undefined;
      var e = { title: title, fullTitle: full, file: file };
      if (err !== undefined) {
        var error = err && typeof err === 'object' ? err : { message: String(err) };
        e.err = { message: text(error.message), stack: text(error.stack) };
        if (error.showDiff !== false && error.expected !== undefined) e.err.expected = text(error.expected);
        if (error.showDiff !== false && error.actual !== undefined) e.err.actual = text(error.actual);
      }
      return e;
    }
    function write() {
      try { fs.writeFileSync(reportPath, JSON.stringify(report)); } catch (e) { /* the run may not write there */ }
    }
    Runner.prototype.emit = function (name, a, b) {
      try {
        if (name === 'start' && !started) { started = true; process.on('exit', write); }
        else if (name === 'pass') report.passes.push(entry(a));
        else if (name === 'fail') report.failures.push(entry(a, b));
        else if (name === 'pending') report.pending.push(entry(a));
        else if (name === 'end') write();
      } catch (e) { /* never change how the tests run */ }
      return emit.apply(this, arguments);
    };
  }
})();
`;
