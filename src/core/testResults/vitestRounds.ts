// Vitest's shared stage 1: a reporter module, inert unless a shared run's plan is named. One started vitest (its vite
// server, config and pool) runs the test files once per candidate (sharedRounds.ts; verification/stageOneBatch.ts
// plans and reads them).
import { JEST_FORMAT_ROUNDS_SOURCE } from './jestRounds';
import { NODE_ROUND_GUARDS_SOURCE } from './nodeRoundGuards';
import { ROUNDS_OVERRUN_FILE } from './sharedRounds';
import type { RoundStop } from './sharedRounds';
import { VITEST_REPORT_VARIABLE } from './vitestConfig';

/** The reporter's file name in the run's output folder. */
export const VITEST_ROUNDS_FILE = 'verified-fix-vitest-rounds.mjs';

/** The variable naming the plan; the reporter removes it, so a vitest that a test starts runs no rounds. */
export const VITEST_BATCH_VARIABLE = 'VERIFIED_FIX_VITEST_BATCH';

/** Where the json reporter writes each round's report, beside the plan, while the rounds run. */
const ROUND_REPORT_FILE = 'verified-fix-vitest-round.json';

/**
 * The reporter. At `onInit` (vitest 1 to 3 call it before the first run) it replaces the instance's `runFiles`, through
 * which `start` runs the test files, with one that runs them once per candidate: after each run it writes the next
 * candidate's text over the file under repair, invalidates that file in each project's vite module graph and
 * vite-node's cache, and runs the same files again. Vitest runs each test file in a fresh worker (the default
 * `isolate`), so candidates never run in this process: what rounds share is the transform server, and the reporter
 * runs no rounds where workers are kept (`isolate: false`, a single worker, a vm pool). The json reporter writes each
 * round's report beside the plan; they become the run's report: `{rounds: [{report, ms?}], stopped?, detail?}`.
 * A round's limit counts the CPU time of this process (thread workers) and of its live child processes (fork
 * workers), read from /proc where there is one.
 */
export const VITEST_ROUNDS_SOURCE = `// Verified Fix: runs vitest's test files once per candidate for the engine. Written by the engine; not part of the project.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
var fs = require("fs");
var path = require("path");
${NODE_ROUND_GUARDS_SOURCE}
var started = false;

// Why this run's workers would keep what a round loaded ("" when each test file runs in a fresh one).
function keptByWorkers(config) {
  var pool = config.pool || "threads";
  if (pool !== "threads" && pool !== "forks") return "pool: " + pool;
  var options = (config.poolOptions && config.poolOptions[pool]) || {};
  if (config.isolate === false || options.isolate === false) return "isolate: false";
  if (options.singleThread || options.singleFork) return pool === "threads" ? "singleThread" : "singleFork";
  return "";
}

// The CPU time, in ms, of this process and of each live process below it (Linux's /proc; elsewhere this one only).
function cpuTimes() {
  var own = process.cpuUsage();
  var times = { self: (own.user + own.system) / 1000 };
  var pending = [String(process.pid)];
  while (pending.length) {
    var pid = pending.pop();
    var tasks;
    try { tasks = fs.readdirSync("/proc/" + pid + "/task"); } catch (e) { continue; }
    for (var t = 0; t < tasks.length; t++) {
      var children;
      try { children = fs.readFileSync("/proc/" + pid + "/task/" + tasks[t] + "/children", "utf8").split(" ").filter(Boolean); } catch (e) { continue; }
      for (var c = 0; c < children.length; c++) {
        try {
          var stat = fs.readFileSync("/proc/" + children[c] + "/stat", "utf8");
          var fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
          times[children[c]] = (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 1/100 s
          pending.push(children[c]);
        } catch (e) { /* it ended */ }
      }
    }
  }
  return times;
}

// A round's limit in CPU time: checked from this thread, which runs no test (workers do), every 100 ms. Past it,
// the file says which round ran over, and the process ends; the rounds before it have their reports written.
function roundClock(ms, file) {
  if (!(ms > 0)) return undefined;
  var round = 0, from;
  var timer = setInterval(function () {
    if (round === 0) return;
    var now = cpuTimes(), used = 0;
    for (var pid in now) used += now[pid] - (from[pid] || 0);
    if (used > ms) {
      try { fs.writeFileSync(file, (round - 1) + " " + Math.round(used)); } catch (e) { /* the run may not write there */ }
      process.kill(process.pid, "SIGKILL");
    }
  }, 100);
  timer.unref();
  return { round: function (n) { round = n; from = n ? cpuTimes() : undefined; } };
}

// Makes each project's next run load \`file\` anew: its vite modules, vite-node's cached transform, and (for workers
// that keep modules, which the rounds refuse anyway) the worker-side cache through \`invalidates\`.
function invalidate(ctx, file) {
  var projects = ctx.projects && ctx.projects.length ? ctx.projects : [ctx];
  for (var p = 0; p < projects.length; p++) {
    var project = projects[p];
    var servers = [project.vite || project.server, project.browser && (project.browser.vite || project.browser)];
    for (var s = 0; s < servers.length; s++) {
      var graph = servers[s] && servers[s].moduleGraph;
      if (graph && typeof graph.getModulesByFile === "function") (graph.getModulesByFile(file) || []).forEach(function (mod) { graph.invalidateModule(mod); });
    }
    var node = project.vitenode;
    if (node && node.fetchCaches) Object.keys(node.fetchCaches).forEach(function (mode) { node.fetchCaches[mode].delete(file); });
    if (node && node.fetchCache && typeof node.fetchCache.delete === "function") node.fetchCache.delete(file);
  }
  var invalidates = (ctx.watcher && ctx.watcher.invalidates) || ctx.invalidates;
  if (invalidates && typeof invalidates.add === "function") invalidates.add(file);
}

${JEST_FORMAT_ROUNDS_SOURCE}
async function rounds(ctx, runFiles, args, shared) {
  var reportPath = process.env.${VITEST_REPORT_VARIABLE};
  var plan = shared.plan, dir = shared.dir, target = shared.target, texts = shared.texts;
  var roundReport = path.join(dir, ${JSON.stringify(ROUND_REPORT_FILE)});
  var targets = [target];
  try { var real = fs.realpathSync(target); if (real !== target) targets.push(real); } catch (e) { /* as located */ }
  var startupMs = process.uptime() * 1000; // what a new process would take before its first round
  var batch = { rounds: [] };
  var kept = [ctx.config].concat((ctx.projects || []).map(function (project) { return project.config; })).map(function (config) { return config ? keptByWorkers(config) : ""; }).filter(Boolean)[0];
  // The json reporter reads where to write when it writes: each round's goes beside the plan, the others' as given
  // (a plain object: vitest sends its config to the workers).
  var outputFile = ctx.config.outputFile;
  var others = typeof outputFile === "string" ? { junit: outputFile, html: outputFile, blob: outputFile } : outputFile;
  ctx.config.outputFile = Object.assign({}, others, { json: roundReport });
  var clock = roundClock(plan.roundMs, path.join(dir, ${JSON.stringify(ROUNDS_OVERRUN_FILE)}));
  var first, record = { passedOnce: false };
  for (;;) {
    try { fs.unlinkSync(roundReport); } catch (e) { /* none yet */ }
    var began = Date.now();
    if (clock) clock.round(batch.rounds.length + 1);
    var result;
    try { result = await runFiles.apply(ctx, args); } catch (e) {
      // What vitest throws out of a run (not a test's failure): the rounds end with the reports written so far.
      ctx.config.outputFile = outputFile;
      write(reportPath, batch);
      throw e;
    }
    if (clock) clock.round(0);
    if (batch.rounds.length === 0) first = result;
    var stop = recordRound(batch, roundReport, began, record);
    if (stop === ${JSON.stringify('unloadable' satisfies RoundStop)}) { batch.stopped = stop; break; }
    write(reportPath, batch);
    if (stop) { batch.stopped = stop; break; }
    if (batch.rounds.length > texts.length) break;
    if (kept) { batch.stopped = ${JSON.stringify('keptByWorkers' satisfies RoundStop)}; batch.detail = kept; break; }
    // The request's first pass ends the process, unless the rounds left cost less than a new process (firstPassStop).
    if (plan.stopAfterPass && record.passedOnce) {
      var ending = firstPassStop(batch.rounds, texts.length + 1 - batch.rounds.length, startupMs);
      if (ending) { batch.stopped = ${JSON.stringify('firstPass' satisfies RoundStop)}; batch.detail = ending; break; }
    }
    try { fs.writeFileSync(target, fs.readFileSync(texts[batch.rounds.length - 1])); } catch (e) { batch.stopped = ${JSON.stringify('unwritable' satisfies RoundStop)}; break; }
    targets.forEach(function (file) { invalidate(ctx, file); });
  }
  ctx.config.outputFile = outputFile;
  write(reportPath, batch);
  return first;
}

function write(file, batch) {
  try { fs.writeFileSync(file, JSON.stringify(batch)); } catch (e) { /* the run may not write there */ }
}

export default class VerifiedFixRounds {
  onInit(ctx) {
    var planPath = process.env.${VITEST_BATCH_VARIABLE};
    if (started || !planPath || !process.env.${VITEST_REPORT_VARIABLE}) return;
    started = true;
    delete process.env.${VITEST_BATCH_VARIABLE};
    var shared = sharedPlan(planPath);
    if (!shared || typeof ctx.runFiles !== "function") return;
    var runFiles = ctx.runFiles;
    // \`start\` runs the files through the instance's runFiles once; that call runs every round.
    ctx.runFiles = function () {
      ctx.runFiles = runFiles;
      return rounds(ctx, runFiles, arguments, shared);
    };
  }
}
`;
