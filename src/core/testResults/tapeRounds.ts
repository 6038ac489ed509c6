// Tape's shared stage 1: part of tape's report hook (tapeHook.ts), inert unless a shared run's plan is named. One
// started tape runs one round per candidate (sharedRounds.ts; verification/stageOneBatch.ts plans and reads them).
import { ROUNDS_OVERRUN_FILE, ROUND_MARK, STOPPED_MARK } from './sharedRounds';
import type { RoundStop } from './sharedRounds';

/** The variable naming the plan; the process that loads tape removes it, so tape runs nested in tests run one round. */
export const TAPE_BATCH_VARIABLE = 'VERIFIED_FIX_TAPE_BATCH';

/**
 * The rounds, as JavaScript text inside the hook. Needs the hook's `write(row)`, `registered`, `observe(harness)`,
 * `shared` and `text(value)`, and NODE_ROUND_GUARDS_SOURCE and PROJECT_ROUND_GUARDS_SOURCE in scope (`target` and
 * `roundHandles` set when the plan is read, `kept` when tape loads). Defines `noteRoundFile(request, parent)` (Module._load: the project modules tape's command
 * line requires, its `-r` modules and then the test files), `noteRoundRow(row)` (each report row),
 * `roundHarness` (where `test()` registers once the first round is over) and `startRounds(tape, observer)`, called at
 * the first registration, once tape's harness and its observer exist.
 *
 * Tape runs a file's tests as they register, on one harness per process that prints its TAP and sets the exit code
 * when the process exits. After the first round's tests are done (its harness's `onFinish`), the next round writes
 * the next candidate's text over the file under repair, drops every module outside node_modules from the cache, makes
 * a harness of its own (`createHarness`, which prints nothing: the TAP on stdout and the exit code stay the first
 * round's, as that candidate's own run would give them), and requires the same files again, whose `test()` calls the
 * wrapper sends to it. The report is the hook's JSON lines, each finished round closed by a mark line
 * (`{"<ROUND_MARK>": round, "ms": n}`) and a stop early by `{"<STOPPED_MARK>": key, "detail": …}`; a round that did
 * not register the first round's tests gets no mark (the engine runs that candidate again). A test that throws (tape
 * leaves that to node, which ends the run) fails its round there, and the process ends. The checks between rounds
 * are mocha's: built-ins, globals, timers and handles, where the file under repair was loaded from.
 */
export const TAPE_ROUNDS_SOURCE = `  var TAPE_BIN = /[\\\\/]tape[\\\\/]bin[\\\\/]/;
  var TAPE_PACKAGE = /[\\\\/]node_modules[\\\\/]tape[\\\\/]/;
  // Held when the hook loads, before any test file runs: a round may replace Date and the timer functions.
  var ownNow = Date.now, ownSetTimeout = setTimeout, ownSetImmediate = setImmediate;
  var roundFiles = [];
  var roundHarness;
  var roundHandles; // the open handles before tape or any test file loads (set with the plan)
  var current; // the round that runs: its start, whether a test failed, and its harness's observer
  function noteRoundFile(request, parent) {
    if (!shared || !parent || typeof parent.filename !== 'string' || !TAPE_BIN.test(parent.filename)) return;
    var file = resolved(request, parent);
    if (file && !IN_PACKAGE.test(file) && roundFiles.indexOf(file) < 0) roundFiles.push(file);
  }
  function noteRoundRow(row) {
    if (current && row.outcome === 'failed') current.failed = true;
  }
  function startRounds(tape, firstObserver) {
    if (typeof tape.createHarness !== 'function' || typeof tape.onFinish !== 'function') return; // one round, as without a plan
    var plan = shared.plan, texts = shared.texts;
    var clock = watchdog(plan.roundMs, path.join(shared.dir, ${JSON.stringify(ROUNDS_OVERRUN_FILE)}));
    var startupMs = process.uptime() * 1000; // what a new process would take before its first round: node, tape
    var rounds = [];
    var handles = roundHandles;
    var globals, planned, detail;
    // The first round's files load in this turn (CommonJS, required one after another): a throw then is no test's.
    var loading = true;
    process.nextTick(function () { loading = false; });
    function begin(observer) { current = { began: ownNow(), failed: false, observer: observer }; if (clock) clock.round(rounds.length + 1); }
    // Closes the round: its mark where it registered the first round's tests (a failing one may run fewer: one that
    // threw stops there); whether it did.
    function record(round) {
      current = undefined;
      if (clock) clock.round(0);
      var valid = rounds.length === 0 || (registered.length === planned && Boolean(require.cache[target]));
      if (planned === undefined) planned = registered.length;
      rounds.push(valid ? { ms: ownNow() - round.began, failed: round.failed } : { failed: round.failed });
      if (valid) write({ ${JSON.stringify(ROUND_MARK)}: rounds.length - 1, ms: rounds[rounds.length - 1].ms });
      return valid;
    }
    // The round's harness is done.
    function ended(round) {
      if (current === round) settled(record(round), 0);
    }
    // Tape leaves a test that throws to node, which ends the process there: the candidate's own run fails at that
    // test, and so does its round (the tests still open fail with the error; those not started never run). The
    // process then ends as it would have: what the test left undone (a stub it would have put back, a fake clock)
    // could reach the next candidate. A throw while the first round's files load, or between rounds, is no round's.
    // Not where the project listens for uncaught exceptions itself: node would not end the process then either.
    process.on('uncaughtException', function (error) {
      if (process.listenerCount('uncaughtException') > 1) return;
      try { process.stderr.write(String((error && error.stack) || error) + '\\n'); } catch (e) { /* nothing to print to */ }
      var round = current;
      if (round && !loading) {
        round.failed = true;
        round.observer.abort('threw: ' + text((error && error.stack) || String(error)));
        record(round);
      }
      if (!loading) write({ ${JSON.stringify(STOPPED_MARK)}: ${JSON.stringify('leftRunning' satisfies RoundStop)}, detail: null });
      process.exit(1);
    });
    // A handle a round's tests leave as they end (a server closing) gets a second to close before it counts as one
    // the candidate left; the timer functions are the hook's own (a round may replace the globals).
    function settled(valid, waits) {
      if (valid && waits < 20 && rounds.length <= texts.length && added(openHandles(), handles)) return void ownSetTimeout(function () { settled(valid, waits + 1); }, 50);
      next(valid ? stopAfter() : ${JSON.stringify('notSame' satisfies RoundStop)});
    }
    function stopAfter() {
      if (rounds.length > texts.length) return '';
      // First, with functions held from before: a patched built-in could fool every check after it.
      var patched = patchedBuiltin();
      if (patched) { detail = patched; return ${JSON.stringify('builtins' satisfies RoundStop)}; }
      if (plan.stopAfterPass && rounds.some(function (r) { return !r.failed; })) {
        var ending = firstPassStop(rounds, texts.length + 1 - rounds.length, startupMs);
        if (ending) { detail = ending; return ${JSON.stringify('firstPass' satisfies RoundStop)}; }
      }
      var names = Object.keys(global);
      if (globals === undefined) globals = names;
      else if (names.some(function (name) { return globals.indexOf(name) < 0; })) return ${JSON.stringify('global' satisfies RoundStop)};
      var left = added(openHandles(), handles);
      if (left) { detail = left; return ${JSON.stringify('handle' satisfies RoundStop)}; }
      if (!require.cache[target]) return ${JSON.stringify('notRequired' satisfies RoundStop)};
      if (loadedOutsideTests(target, roundFiles)) return ${JSON.stringify('loadedElsewhere' satisfies RoundStop)};
      if (packageKeepsProjectModule(TAPE_PACKAGE)) return ${JSON.stringify('packageKeeps' satisfies RoundStop)};
      return undefined;
    }
    function next(why) {
      if (why === undefined) {
        try { fs.writeFileSync(target, fs.readFileSync(texts[rounds.length - 1])); } catch (e) { why = ${JSON.stringify('unwritable' satisfies RoundStop)}; }
      }
      if (why === undefined) {
        Object.keys(require.cache).forEach(function (key) { if (!IN_PACKAGE.test(key)) delete require.cache[key]; });
        // As tape's own harness takes --no-only (its command line sets the variable).
        var noOnly = process.env.NODE_TAPE_NO_ONLY_TEST;
        var harness = tape.createHarness({ noOnly: noOnly === undefined ? false : noOnly });
        roundHarness = harness;
        registered.length = 0;
        try {
          begin(observe(harness));
          var round = current;
          harness.onFinish(function () { ownSetImmediate(function () { ended(round); }); });
          roundFiles.forEach(function (file) { require(file); });
          return;
        } catch (e) {
          // The tests the round registered before the throw are not run: the candidate runs on its own, where its run says why.
          current = undefined;
          if (harness._results && Array.isArray(harness._results.tests)) harness._results.tests.length = 0;
          why = ${JSON.stringify('unloadable' satisfies RoundStop)};
          detail = text(e && e.message);
        }
      }
      if (why) write({ ${JSON.stringify(STOPPED_MARK)}: why, detail: detail || null });
    }
    begin(firstObserver);
    var first = current;
    tape.onFinish(function () { ownSetImmediate(function () { ended(first); }); });
  }
`;
