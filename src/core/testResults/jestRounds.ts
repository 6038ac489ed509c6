// Jest's shared stage 1: a `--require` hook (through NODE_OPTIONS), inert unless a shared run's plan is named. One
// started jest runs one round per candidate (sharedRounds.ts; verification/stageOneBatch.ts plans and reads them).
import { JEST_REPORT_VARIABLE } from './jestProcessor';
import { NODE_ROUND_GUARDS_SOURCE } from './nodeRoundGuards';
import { ROUNDS_OVERRUN_FILE } from './sharedRounds';
import type { RoundStop } from './sharedRounds';

/** The hook's file name in the run's output folder. */
export const JEST_ROUNDS_HOOK_FILE = 'verified-fix-jest-rounds.cjs';

/**
 * The variable naming the plan. The process that loads jest's `@jest/core` removes it, so jest's workers and nested
 * runs see none; a process before it (`cross-env`, a script that starts jest) passes it on.
 */
export const JEST_BATCH_VARIABLE = 'VERIFIED_FIX_JEST_BATCH';

/** Where the results processor writes each round's report, beside the plan, while the rounds run. */
const ROUND_REPORT_FILE = 'verified-fix-jest-round.json';

/**
 * How the jest hook and vitest's rounds reporter read a finished round, whose report is in jest's format (jest's
 * results processor, vitest's json reporter), as JavaScript text (needs `fs` in scope).
 * `summary(report)`: every test it ran, whatever the outcome (rounds of the same selection must run the same ones; -1
 * for a report that cannot be read), and whether every file passed.
 * `recordRound(batch, file, began, record)`: reads the round's report from `file` once and adds it to
 * `batch.rounds`, with its time since `began` when it ran the tests the first round ran (`record` keeps that
 * count and whether any round passed); returns why the rounds end here ('' to go on): `unloadable` for no report, or
 * for a round after the first that ran no test because its file could not load the candidate (nothing is added: that
 * candidate runs on its own, where its run says why), `notSame` for a round that ran other tests (added without a time).
 */
export const JEST_FORMAT_ROUNDS_SOURCE = `  function summary(report) {
    try {
      var files = JSON.parse(report).testResults;
      return { tests: files.reduce(function (n, file) { return n + (file.assertionResults || []).length; }, 0), passed: files.every(function (file) { return file.status !== 'failed'; }) };
    } catch (e) { return { tests: -1, passed: false }; }
  }
  function recordRound(batch, file, began, record) {
    var report;
    try { report = fs.readFileSync(file, 'utf8'); } catch (e) { return ${JSON.stringify('unloadable' satisfies RoundStop)}; }
    var seen = summary(report);
    if (seen.tests === 0 && batch.rounds.length > 0 && !seen.passed) return ${JSON.stringify('unloadable' satisfies RoundStop)};
    if (record.tests === undefined && seen.tests > 0) record.tests = seen.tests;
    var valid = batch.rounds.length === 0 || seen.tests === record.tests;
    var round = { report: report };
    if (valid) round.ms = Date.now() - began;
    batch.rounds.push(round);
    record.passedOnce = record.passedOnce || seen.passed;
    return valid ? '' : ${JSON.stringify('notSame' satisfies RoundStop)};
  }
`;

/**
 * The hook. When jest's command line loads `@jest/core`, it hands it a view whose `runCLI` runs the whole run once
 * per candidate: after each run it writes that candidate's text over the file under repair and calls `runCLI` again
 * with the same arguments, as the first call had them (jest 26 to 30 call it by property, through `_core().runCLI`).
 * Jest itself loads a test file's modules anew on every run, in a module registry and a context of their own, so a
 * candidate's globals stay in its round; what they share is the process: core modules, built-ins, timers and handles,
 * which the checks between rounds compare. The results processor (jestProcessor.ts) writes each round's report to a
 * file beside the plan; the hook gathers them into the run's report: `{rounds: [{report, ms?}], stopped?, detail?}`.
 * It returns the first run's results, so the process exits as the first candidate's own run would.
 */
export const JEST_ROUNDS_SOURCE = `'use strict';
// Verified Fix: runs jest once per candidate for the engine. Written by the engine; not part of the project.
(function () {
  var planPath = process.env.${JEST_BATCH_VARIABLE};
  var reportPath = process.env.${JEST_REPORT_VARIABLE};
  if (!planPath || !reportPath) return;
  var Module = require('module');
  var fs = require('fs');
  var path = require('path');
${NODE_ROUND_GUARDS_SOURCE}
  var shared = sharedPlan(planPath);
  if (!shared) return;
  var plan = shared.plan, dir = shared.dir, target = shared.target, texts = shared.texts;
  var roundReport = path.join(dir, ${JSON.stringify(ROUND_REPORT_FILE)});
  var kept = builtins(); // before jest or any project code loads: no round may change them
  var GRACEFUL_FS = ['require("fs").close', 'require("fs").closeSync', 'require("fs").Symbol(graceful-fs.queue)'];
  function jestOwn(name) { return GRACEFUL_FS.indexOf(name) >= 0 || name.indexOf('.Symbol($$jest-') > 0; }
  var load = Module._load;
  var wrapped = false;
  Module._load = function (request) {
    var exported = load.apply(this, arguments);
    if (!wrapped && request === '@jest/core' && exported && typeof exported.runCLI === 'function') {
      wrapped = true;
      delete process.env.${JEST_BATCH_VARIABLE};
      var runCLI = exported.runCLI;
      return new Proxy(exported, { get: function (object, key) { return key === 'runCLI' ? function () { return rounds(runCLI, this, arguments); } : object[key]; } });
    }
    return exported;
  };
  function write(batch) {
    try { fs.writeFileSync(reportPath, JSON.stringify(batch)); } catch (e) { /* the run may not write there */ }
  }
${JEST_FORMAT_ROUNDS_SOURCE}  async function rounds(runCLI, self, args) {
    process.env.${JEST_REPORT_VARIABLE} = roundReport;
    var startupMs = process.uptime() * 1000; // what a new process would take before its first round
    var clock = watchdog(plan.roundMs, path.join(dir, ${JSON.stringify(ROUNDS_OVERRUN_FILE)}));
    var batch = { rounds: [] };
    var first, record = { passedOnce: false };
    for (;;) {
      try { fs.unlinkSync(roundReport); } catch (e) { /* none yet */ }
      var started = Date.now();
      if (clock) clock.round(batch.rounds.length + 1);
      var results = await runCLI.apply(self, args);
      if (clock) clock.round(0);
      if (first === undefined) first = results;
      var stop = recordRound(batch, roundReport, started, record);
      if (stop === ${JSON.stringify('unloadable' satisfies RoundStop)}) { batch.stopped = stop; break; }
      write(batch);
      if (stop) { batch.stopped = stop; break; }
      var why = await stopAfter(batch, startupMs, record.passedOnce);
      if (why === undefined) {
        try { fs.writeFileSync(target, fs.readFileSync(texts[batch.rounds.length - 1])); } catch (e) { why = ${JSON.stringify('unwritable' satisfies RoundStop)}; }
      }
      if (why !== undefined) { if (why) batch.stopped = why; break; }
    }
    write(batch);
    process.env.${JEST_REPORT_VARIABLE} = reportPath;
    return first;
  }
  var handles;
  // What a round left beyond what the first did, once jest's own have had half a second to close; '' for nothing.
  async function leftOver() {
    for (var tries = 0; ; tries++) {
      var left = added(openHandles(), handles);
      if (!left || tries === 10) return left;
      await new Promise(function (resolve) { setTimeout(resolve, 50); });
    }
  }
  // Why the rounds end after this one: '' after the last; undefined when the next may run.
  async function stopAfter(batch, startupMs, passedOnce) {
    if (batch.rounds.length > texts.length) return '';
    // First, so that a timer that fires meanwhile has done what it does before the other checks look. Jest's runs
    // leave their own for a while (a child process it starts and its timer): later rounds are compared with the first.
    if (batch.rounds.length === 1) handles = openHandles();
    var left = await leftOver();
    if (left) { batch.detail = left; return ${JSON.stringify('handle' satisfies RoundStop)}; }
    // Jest's first run changes some itself: graceful-fs wraps fs.close and fs.closeSync in place, and jest 30 marks
    // the globals it protects with symbols of its own. Later rounds are compared with what the first left.
    var now = builtins();
    var patched = changed(now, kept, batch.rounds.length === 1 ? jestOwn : undefined);
    if (patched) { batch.detail = patched; return ${JSON.stringify('builtins' satisfies RoundStop)}; }
    kept = now;
    // The request's first pass ends the process, unless the rounds left cost less than a new process (firstPassStop).
    if (plan.stopAfterPass && passedOnce) {
      var ending = firstPassStop(batch.rounds, texts.length + 1 - batch.rounds.length, startupMs);
      if (ending) { batch.detail = ending; return ${JSON.stringify('firstPass' satisfies RoundStop)}; }
    }
    return undefined;
  }
})();
`;
