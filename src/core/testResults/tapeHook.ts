// Tape's side channel: a `--require` hook (through NODE_OPTIONS) that reads tape's own object stream beside its TAP
// output, and runs a shared stage 1's rounds (tapeRounds.ts).
import { NODE_ROUND_GUARDS_SOURCE, PROJECT_ROUND_GUARDS_SOURCE } from './nodeRoundGuards';
import { TAPE_BATCH_VARIABLE, TAPE_ROUNDS_SOURCE } from './tapeRounds';

/** The hook's file name in the run's output folder. */
export const TAPE_HOOK_FILE = 'verified-fix-tape-hook.cjs';

/** The variable naming the report the hook writes; the hook removes it as soon as tape loads. */
export const TAPE_REPORT_VARIABLE = 'VERIFIED_FIX_TAPE_REPORT';

/**
 * The hook. Inert until a process loads tape's `index.js`; then the module it hands out is a wrapper that, for each
 * top-level `test()` (and `.only`, `.skip`), notes the calling file from the stack, because tape's TAP does not name
 * files. At the first registration it creates tape's harness as `test()` would (`getHarness`, tape 4.11 and later),
 * so that tape keeps printing its TAP to stdout as always, and opens a second, object-mode stream on it and writes one JSON line per test as it ends:
 * file, names (a `t.test` subtest under its parent), outcome, the first failing assertion's message. A test with
 * no assertion of its own (a parent of subtests) is left out: TAP's own count, the printed second witness, counts
 * assertions, and must never be below the report's. A top-level
 * test is matched to its registration by name, so `.only` runs keep their files. Tape 4 and 5.
 *
 * The guard (#25 item 4): when tape's `lib/test.js` and `lib/results.js` load, whoever requires them, every method of
 * their prototypes (`t.equal`, the `_assert` every assertion reports through, what TAP's summary prints) keeps its
 * original: writing it on the prototype is ignored and redefining it throws, so a candidate that replaces one
 * through a name built at run time finds it unchanged. New methods can still be added (a suite's own assertions),
 * and a test object may still hold its own copies (tape 5 binds them onto each test). Checked on tape 5.
 */
export const TAPE_HOOK_SOURCE = `'use strict';
// Verified Fix: records tape's per-test results for the engine. Written by the engine; not part of the project.
(function () {
  var reportPath = process.env.${TAPE_REPORT_VARIABLE};
  if (!reportPath) return;
  var batchPath = process.env.${TAPE_BATCH_VARIABLE};
  var Module = require('module');
  var fs = require('fs');
  var path = require('path');
${NODE_ROUND_GUARDS_SOURCE}${PROJECT_ROUND_GUARDS_SOURCE}${TAPE_ROUNDS_SOURCE}
  // A shared run: its plan, and the handles open before tape or any test file loads (the built-ins are taken when
  // tape loads: tape 4's command line loads the test files inside its own loading, which is a package's).
  var shared = batchPath ? sharedPlan(batchPath) : undefined;
  if (shared) { target = shared.target; roundHandles = openHandles(); }
  var load = Module._load;
  var TAPE = /[\\\\/]tape[\\\\/]index\\.js$/;
  var LIB = /[\\\\/]tape[\\\\/]lib[\\\\/](?:test|results)\\.js$/;
  var wrapped;
  var registered = [];
  var fd;
  function write(row) {
    try { if (fd === undefined) fd = fs.openSync(reportPath, 'w'); fs.writeSync(fd, JSON.stringify(row) + '\\n'); } catch (e) { /* the run may not write there */ }
  }
  function caller() {
    var lines = String(new Error().stack).split('\\n');
    for (var i = 1; i < lines.length; i++) {
      var m = /\\(?((?:\\/|[A-Za-z]:\\\\)[^()]*?):\\d+:\\d+\\)?$/.exec(lines[i]);
      if (m && m[1] !== __filename && !/[\\\\/]node_modules[\\\\/]/.test(m[1])) return path.relative(process.cwd(), m[1]).split(path.sep).join('/');
    }
    return '';
  }
  function nameOf(args) {
    for (var i = 0; i < args.length; i++) if (typeof args[i] === 'string') return args[i];
    for (var j = 0; j < args.length; j++) if (typeof args[j] === 'function' && args[j].name) return args[j].name;
    return '(anonymous)';
  }
  function text(value) {
    try { return (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 2000); } catch (e) { return String(value).slice(0, 2000); }
  }
  // Writes the report's rows for a harness's tests as they end. Returns \`abort(message)\`, for a test that threw out
  // of tape in a shared run: the tests still open are written as failed with it, and the rest of the stream is not
  // read.
  function observe(harness) {
    var tests = {};
    var order = [];
    var active = true;
    function emit(t, outcome, message) {
      var row = { file: t.file, names: t.names, outcome: outcome, message: message };
      write(row);
      noteRoundRow(row);
    }
    var stream = harness.createStream({ objectMode: true });
    stream.on('data', function (row) {
      if (!active) return;
      try {
        if (row.type === 'test') {
          var parent = row.parent !== undefined ? tests[row.parent] : undefined;
          var file = parent ? parent.file : '';
          if (!parent) {
            var at = -1;
            for (var i = 0; i < registered.length; i++) if (!registered[i].used && registered[i].name === row.name) { at = i; break; }
            if (at < 0) for (var k = 0; k < registered.length; k++) if (!registered[k].used) { at = k; break; }
            if (at >= 0) { registered[at].used = true; file = registered[at].file; }
          }
          tests[row.id] = { file: file, names: (parent ? parent.names : []).concat([String(row.name)]), skip: Boolean(row.skip), failed: false, asserts: 0, ended: false };
          order.push(row.id);
        } else if (row.type === 'assert' && tests[row.test]) tests[row.test].asserts++;
        if (row.type === 'assert' && tests[row.test] && !row.ok && !row.todo && !row.skip) {
          var test = tests[row.test];
          if (!test.failed) {
            var lines = [String(row.name || 'assertion failed')];
            if (row.operator) lines.push('operator: ' + row.operator);
            if ('expected' in row) lines.push('expected: ' + text(row.expected));
            if ('actual' in row) lines.push('actual: ' + text(row.actual));
            if (row.error && row.error.stack) lines.push(String(row.error.stack).slice(0, 2000));
            test.message = lines.join('\\n');
          }
          test.failed = true;
        } else if (row.type === 'end' && tests[row.test]) {
          var t = tests[row.test];
          t.ended = true;
          if (t.asserts > 0) emit(t, t.failed ? 'failed' : t.skip ? 'skipped' : 'passed', t.message);
        }
      } catch (e) { /* never change how the tests run */ }
    });
    return {
      abort: function (message) {
        active = false;
        var open = order.filter(function (id) { return !tests[id].ended; });
        // The innermost open test threw; its parents count where they asserted something, as at their end.
        open.forEach(function (id, i) {
          tests[id].ended = true;
          if (tests[id].asserts > 0 || i === open.length - 1) emit(tests[id], 'failed', tests[id].message || message);
        });
      },
    };
  }
  function wrap(tape) {
    var streaming = false;
    // \`key\`: '' for test() itself, else the method of that name (only, skip); once a shared run's first round is
    // over, on that round's harness.
    function registering(key) {
      return function () {
        registered.push({ file: caller(), name: nameOf(arguments), used: false });
        // The harness first (what test() would create anyway), then the stream: a test announces itself as it registers.
        if (!streaming && typeof tape.getHarness === 'function') {
          streaming = true;
          var observer;
          try { tape.getHarness(); observer = observe(tape); } catch (e) { /* no report, same run */ }
          if (shared && observer) try { startRounds(tape, observer); } catch (e) { /* one round, as without a plan */ }
        }
        var to = key ? (roundHarness && roundHarness[key]) || tape[key] : roundHarness || tape;
        var result = to.apply(this, arguments);
        if (!streaming) { streaming = true; try { observe(tape); } catch (e) { /* no report, same run */ } }
        return result;
      };
    }
    var w = registering('');
    // tape's own \`test\` is tape itself: \`const { test } = require('tape')\` must get the wrapper too (found on
    // @fastify/deepmerge by bench:projects: every file registered through it, so no report at all).
    Object.keys(tape).forEach(function (key) { w[key] = tape[key] === tape ? w : tape[key]; });
    ['only', 'skip'].forEach(function (key) { if (typeof tape[key] === 'function') w[key] = registering(key); });
    // What a test file asks of the harness (test.onFinish(close), a stream of its own) is asked of its round's.
    ['onFinish', 'onFailure', 'createStream', 'getHarness'].forEach(function (key) {
      if (typeof tape[key] !== 'function') return;
      w[key] = function () {
        if (!roundHarness) return tape[key].apply(tape, arguments);
        return key === 'getHarness' ? roundHarness : roundHarness[key].apply(roundHarness, arguments);
      };
    });
    return w;
  }
  // Tape 5 binds every method onto each test as it is made (this[name] = callBind(this[name], this)), which a
  // read-only method of the prototype would refuse: each method becomes an accessor that gives the original and, set
  // on a test, makes that test's own copy; set on the prototype itself, it is ignored. Not redefinable either way.
  function lock(proto) {
    if (!proto) return;
    Reflect.ownKeys(proto).forEach(function (key) {
      var own = Object.getOwnPropertyDescriptor(proto, key);
      if (!own || !own.configurable || typeof own.value !== 'function') return;
      var original = own.value;
      try {
        Object.defineProperty(proto, key, {
          enumerable: own.enumerable,
          configurable: false,
          get: function () { return original; },
          set: function (value) {
            if (this !== proto) Object.defineProperty(this, key, { value: value, writable: true, enumerable: true, configurable: true });
          },
        });
      } catch (e) { /* left as it was */ }
    });
  }
  var locked = [];
  Module._load = function (request, parent) {
    var exported = shared ? loadWatched(load, this, arguments) : load.apply(this, arguments);
    noteRoundFile(request, parent);
    if (typeof request !== 'string' || !/tape|\\.\\.?(?:[\\\\/]|$)/.test(request) || typeof exported !== 'function') return exported;
    if (locked.indexOf(exported) < 0 && /(?:^|[\\\\/])(?:test|results)(?:\\.js)?$/.test(request) && LIB.test(resolved(request, parent))) {
      locked.push(exported);
      lock(exported.prototype);
    }
    if (wrapped && (exported === wrapped.original)) return wrapped.module;
    if (!wrapped && TAPE.test(resolved(request, parent))) {
      delete process.env.${TAPE_REPORT_VARIABLE};
      delete process.env.${TAPE_BATCH_VARIABLE};
      if (shared) kept = builtins(); // no round may change them, what packages change as they load from now on aside
      wrapped = { original: exported, module: wrap(exported) };
      return wrapped.module;
    }
    return exported;
  };
})();
`;
