// Mocha's side channel: a `--require` hook (through NODE_OPTIONS) that records the runner's events in whatever reporter the user chose.
import { ROUNDS_OVERRUN_FILE } from './sharedRounds';
import { NODE_ROUND_GUARDS_SOURCE, PROJECT_ROUND_GUARDS_SOURCE } from './nodeRoundGuards';
import type { RoundStop } from './sharedRounds';

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
 * The variable naming a shared run's plan (sharedRounds.ts). Set, the report holds `{rounds: [report, …], stopped?,
 * detail?}`, one round per candidate in order, a finished round with its `ms`, and the key of ROUND_STOPS that ended
 * the run early; the claiming process removes it too.
 */
export const MOCHA_BATCH_VARIABLE = 'VERIFIED_FIX_MOCHA_BATCH';

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
  var batchPath = process.env.${MOCHA_BATCH_VARIABLE};
  var Module = require('module');
  var fs = require('fs');
  var path = require('path');
  var edges = loadsPath ? Object.create(null) : undefined;
  function relative(file) { return path.isAbsolute(file) ? path.relative(process.cwd(), file) : file; }
  function writeLoads() {
    try { fs.writeFileSync(loadsPath, Object.keys(edges).join('\\n')); } catch (e) { /* the run may not write there */ }
  }
  var load = Module._load;
  var ownSetTimeout = setTimeout;
  var ownSetImmediate = setImmediate;
  var found = false;
  var batchFound = false;
  var RUNNER = /[\\\\/]mocha[\\\\/]lib[\\\\/]runner\\.js$/;
  var MOCHA = /[\\\\/]mocha[\\\\/]lib[\\\\/]mocha\\.js$/;
  var MOCHA_PACKAGE = /[\\\\/]node_modules[\\\\/]mocha[\\\\/]/;
  var LIMIT = 2000;
  function fresh() { return { passes: [], failures: [], pending: [] }; }
  var report = fresh();
  var planned; // the tests the runner's 'start' said it would run (runner.total)
  var current; // the runner that started last
  var batch;
  function write() {
    try { fs.writeFileSync(reportPath, JSON.stringify(batch || report)); } catch (e) { /* the run may not write there */ }
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
    var exported = loadWatched(load, this, arguments);
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
      delete process.env.${MOCHA_BATCH_VARIABLE};
      if (edges) process.on('exit', writeLoads);
      if (exported && exported.prototype && typeof exported.prototype.emit === 'function') observe(exported);
    }
    if (batchPath && !batchFound && typeof request === 'string' && /mocha/.test(request) && MOCHA.test(resolved(request, parent))) {
      batchFound = true;
      if (exported && exported.prototype && typeof exported.prototype.run === 'function') try { rounds(exported); } catch (e) { /* one round, as without a plan */ }
    }
    return exported;
  };
  function observe(Runner) {
    var emit = Runner.prototype.emit;
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
        if (error.uncaught || error.code === 'ERR_MOCHA_TIMEOUT' || /^Timeout of \\d+ms exceeded/.test(String(error.message))) e.err.leftRunning = true;
      }
      return e;
    }
    Runner.prototype.emit = function (name, a, b) {
      try {
        if (name === 'start') { planned = typeof this.total === 'number' ? this.total : undefined; current = this; }
        if (batch && this !== current) { /* an earlier round's runner, still unwinding: not this round's */ }
        else if (name === 'start' && !started) {
          started = true;
          process.on('exit', write);
          // --bail, from the command, .mocharc or mocha.opts: the run ends at its first failure.
          if (this.suite && typeof this.suite.bail === 'function' && this.suite.bail() === true) report.bail = true;
        }
        else if (name === 'pass') report.passes.push(entry(a));
        else if (name === 'fail') report.failures.push(entry(a, b));
        else if (name === 'pending') report.pending.push(entry(a));
        else if (name === 'end') write();
      } catch (e) { /* never change how the tests run */ }
      return emit.apply(this, arguments);
    };
  }
  // A shared run: the first run of the process runs once per candidate, each time with the file under repair holding
  // the next candidate's text and every module outside node_modules loaded anew. It ends early, and the engine runs
  // the rest in a process of their own, where a round could reach the next: a changed built-in or core module, a test
  // that timed out or threw outside a test, a new global, a timer or handle left open, a file under repair that
  // something other than the tests loaded or a package kept. A pass goes on (a few more short rounds cost less than
  // the start of another process) unless the plan says stopAfterPass: until the request has a candidate past its
  // failing tests, the first one to pass should not wait for the others, unless the rounds left take less time than
  // this process took to start (the others would pay that start again in a process of their own, later). What a
  // round costs is known from a round loaded anew (the first loads once what every round shares, and mocha 8 and
  // later load its test files before run): a pass in the first round goes on for one more to learn it. A round that
  // did not load the new text, or ran another number of tests than the first, is left without its time: the engine
  // runs that one again.
  function rounds(Mocha) {
    var shared = sharedPlan(batchPath);
    if (!shared) return;
    var plan = shared.plan, dir = shared.dir, texts = shared.texts;
    target = shared.target;
    kept = builtins(); // before any test file or project code loads: no round may change them, packages' loading aside
    // The interface each round sets up again: mocha 5 and earlier take "-u tdd" through ui() after the constructor,
    // so their options never hold it, and a round with the default one would leave tdd's suite() on the last root.
    var ui = Mocha.prototype.ui;
    var uiName;
    Mocha.prototype.ui = function (name) { if (name) uiName = name; return ui.apply(this, arguments); };
    var run = Mocha.prototype.run;
    Mocha.prototype.run = function (fn) {
      Mocha.prototype.run = run;
      var mocha = this;
      if (mocha.options && mocha.options.parallel) return run.apply(mocha, arguments); // workers keep their own modules
      var files = (mocha.files || []).map(function (file) { return path.resolve(file); });
      var helpers = requiredHelpers(files);
      var globals; // what the first round leaves (mocha <= 5 defines its interface, test helpers their own): later rounds must add nothing
      var clock = watchdog(plan.roundMs, path.join(dir, ${JSON.stringify(ROUNDS_OVERRUN_FILE)}));
      var handles = openHandles();
      var tests;
      var started = 0;
      var startupMs = process.uptime() * 1000; // what a new process would take before its first round: node, mocha, the test files
      batch = { rounds: [] };
      function begin() { planned = undefined; report = fresh(); batch.rounds.push(report); started = Date.now(); if (clock) clock.round(batch.rounds.length); }
      function count() { return report.passes.length + report.failures.length + report.pending.length; }
      function stopAfter() {
        if (batch.rounds.length > texts.length) return '';
        // First, with functions held from before: a patched built-in could fool every check after it.
        var patched = patchedBuiltin();
        if (patched) { batch.detail = patched; return ${JSON.stringify('builtins' satisfies RoundStop)}; }
        if (plan.stopAfterPass && batch.rounds.some(function (r) { return r.failures.length === 0; })) {
          var ending = firstPassStop(batch.rounds, texts.length + 1 - batch.rounds.length, startupMs);
          if (ending) { batch.detail = ending; return ${JSON.stringify('firstPass' satisfies RoundStop)}; }
        }
        if (report.failures.some(function (f) { return f.err && f.err.leftRunning; })) return ${JSON.stringify('leftRunning' satisfies RoundStop)};
        var names = Object.keys(global);
        if (globals === undefined) globals = names;
        else if (names.some(function (name) { return globals.indexOf(name) < 0; })) return ${JSON.stringify('global' satisfies RoundStop)};
        var left = added(openHandles(), handles);
        if (left) { batch.detail = left; return ${JSON.stringify('handle' satisfies RoundStop)}; }
        if (!require.cache[target]) return ${JSON.stringify('notRequired' satisfies RoundStop)};
        if (loadedOutsideTests(target, files.concat(helpers))) return ${JSON.stringify('loadedElsewhere' satisfies RoundStop)};
        if (packageKeepsProjectModule(MOCHA_PACKAGE)) return ${JSON.stringify('packageKeeps' satisfies RoundStop)};
        return undefined;
      }
      // Each round's runner calls back once: mocha <= 5 under --bail emits 'end' at the first failure and again when
      // it has unwound, and the second must not end the round after it.
      function once(fn) {
        var called = false;
        return function () { if (called) return undefined; called = true; return fn.apply(this, arguments); };
      }
      function done(failures) {
        // The tests the round set out to run: with --bail, a round that fails stops early and runs fewer.
        var size = planned !== undefined ? planned : count();
        var valid = batch.rounds.length === 1 || (size === tests && Boolean(require.cache[target]));
        if (valid) report.ms = Date.now() - started;
        if (tests === undefined) tests = size;
        // A child process the runner starts as a round ends (mocha.opts' --growl notifies through one) gets a second
        // to end before the checks count its handle as one a candidate left. Checked from an immediate: inside its own
        // callback, a timer still counts as open. The timer functions are the hook's own (a round may replace the
        // globals), the round's CPU watchdog stays on (a timer it left may loop), and the round ends once.
        var self = this;
        var waits = 0;
        var ended = false;
        (function settled() {
          if (ended) return;
          if (valid && waits < 20 && batch.rounds.length <= texts.length && added(openHandles(), handles)) { waits++; return void ownSetTimeout(ownSetImmediate, 50, settled); }
          ended = true;
          if (clock) clock.round(0);
          next.call(self, failures, valid);
        })();
      }
      function next(failures, valid) {
        var why = valid ? stopAfter() : ${JSON.stringify('notSame' satisfies RoundStop)};
        if (why === undefined) {
          try { fs.writeFileSync(target, fs.readFileSync(texts[batch.rounds.length - 1])); } catch (e) { why = ${JSON.stringify('unwritable' satisfies RoundStop)}; }
        }
        if (why === undefined) {
          Object.keys(require.cache).forEach(function (key) { if (!IN_PACKAGE.test(key)) delete require.cache[key]; });
          write();
          begin();
          try {
            helpers.forEach(function (file) { require(file); });
            mocha.suite = rootLike(mocha.suite, new Mocha.Suite('', new Mocha.Context(), true));
            // Root hook plugins (mocha 8 and later: --require of a file exporting mochaHooks) live on the root suite.
            if (mocha.options && mocha.options.rootHooks && typeof mocha.rootHooks === 'function') mocha.rootHooks(mocha.options.rootHooks);
            mocha.ui(uiName || (mocha.options && mocha.options.ui));
            if (mocha._lazyLoadFiles && typeof mocha.lazyLoadFiles === 'function') mocha.lazyLoadFiles(false);
            return run.call(mocha, once(done));
          } catch (e) {
            batch.rounds.pop();
            why = ${JSON.stringify('unloadable' satisfies RoundStop)};
            batch.detail = text(e && e.message);
          }
        }
        if (why) batch.stopped = why;
        write();
        return typeof fn === 'function' ? fn.call(this, failures) : undefined;
      }
      if (typeof mocha.cleanReferencesAfterRun === 'function') mocha.cleanReferencesAfterRun(false);
      begin();
      return run.call(mocha, once(done));
    };
  }
  // A new root suite with the old one's settings: --timeout, --slow, --retries and --bail are set on the root suite.
  function rootLike(old, made) {
    ['timeout', 'slow', 'retries', 'bail'].forEach(function (name) {
      try { if (typeof old[name] === 'function' && typeof made[name] === 'function') made[name](old[name]()); } catch (e) { /* not in this mocha */ }
    });
    return made;
  }
  // The project's modules that mocha's --require (or a .mocharc's require) loaded before the first round, in load
  // order: a helper that puts the module under repair on a global ("global.lib = require('../lib')", as many older
  // suites do) would keep the first round's code there. Each round runs them again, as a process of its own would.
  function requiredHelpers(files) {
    var root = fs.realpathSync(process.cwd()) + path.sep;
    var project = function (file) { return typeof file === 'string' && file.indexOf(root) === 0 && !IN_PACKAGE.test(file); };
    return Object.keys(require.cache).filter(function (key) {
      if (!project(key) || files.indexOf(key) >= 0) return false;
      var parent = require.cache[key].parent;
      return !parent || !project(parent.filename);
    });
  }
${NODE_ROUND_GUARDS_SOURCE}
${PROJECT_ROUND_GUARDS_SOURCE}
})();
`;
