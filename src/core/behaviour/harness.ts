// The replay harness: a CommonJS script the check writes to a replay run's output folder and runs with node in the
// run's tree. It loads the file under repair (a version with the replay hook), calls the function on every input
// under a time limit per call, and writes each outcome, serialised, to results.bin.
import { REPLAY_KEY } from './instrument';

export const HARNESS_FILE = 'replay.cjs';
export const INPUTS_FILE = 'inputs.bin';
export const RESULTS_FILE = 'results.bin';

/**
 * The module under test runs in the harness's own process, so nothing here is secret from it. What the harness can
 * do is take everything it uses before the module loads (a candidate replacing `v8.serialize`, `JSON` or
 * `Array.prototype.push` changes nothing it calls) and leave the judging to the engine, which reads the results of
 * each version's own run, checks their shape, and never lets one version's run see another's outcomes.
 */
export const HARNESS_SOURCE = String.raw`'use strict';
const fs = require('fs'), v8 = require('v8'), vm = require('vm'), path = require('path'), url = require('url'), util = require('util');
const serialize = v8.serialize, deserialize = v8.deserialize, inspect = util.inspect, Script = vm.Script;
const openSync = fs.openSync, writeSync = fs.writeSync, closeSync = fs.closeSync, readFileSync = fs.readFileSync;
const create = Object.create, assign = Object.assign, apply = Reflect.apply, isArray = Array.isArray, from = Array.from;
const PromiseC = Promise, race = Promise.race.bind(Promise), resolveP = Promise.resolve.bind(Promise), setT = setTimeout, clearT = clearTimeout;
const now = performance.now.bind(performance), symbol = Symbol.for('${REPLAY_KEY}'), exit = process.exit.bind(process), StringC = String;
const [outDir, relPath, perCallArg, budgetArg] = process.argv.slice(2);
const perCallMs = Number(perCallArg), budgetMs = Number(budgetArg);
const inputs = deserialize(Buffer.from(readFileSync(path.join(outDir, '${INPUTS_FILE}'), 'utf8'), 'base64'));
// Opened before the module loads: the results go to this descriptor whatever the module does to the path.
const out = openSync(path.join(outDir, '${RESULTS_FILE}'), 'w');
// One context for every call: making one per call costs milliseconds each.
const script = new Script('box.value = apply(fn, self, args)'), context = vm.createContext({ apply });
function write(value) { writeSync(out, serialize(value)); closeSync(out); }
function describe(error) { try { return error && typeof error === 'object' ? StringC(error.name) + ': ' + StringC(error.message) : StringC(error); } catch { return 'an error'; } }
function pack(outcome) {
  try { return serialize(outcome); } catch {
    const text = (value) => { try { return inspect(value, { depth: 4, breakLength: Infinity }); } catch { return '?'; } };
    return serialize({ kind: outcome.kind, text: text(outcome.value), argsText: text(outcome.args) });
  }
}
async function callOne(hook, bytes, deadline) {
  if (now() > deadline) return serialize({ kind: 'skipped' });
  let input;
  try { input = deserialize(bytes); } catch { return serialize({ kind: 'skipped' }); }
  const args = input.args;
  const self = hook.proto ? assign(create(hook.proto), input.self) : undefined;
  const box = {};
  try {
    context.box = box; context.fn = hook.fn; context.self = self; context.args = args;
    script.runInContext(context, { timeout: perCallMs });
  } catch (error) {
    if (error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return serialize({ kind: 'timeout' });
    return pack({ kind: 'threw', name: describeName(error), message: describeMessage(error), args });
  }
  let value = box.value;
  if (value && typeof value.then === 'function') {
    let timer;
    try {
      value = await race([resolveP(value).then((v) => ({ v })), new PromiseC((resolve) => { timer = setT(() => resolve(undefined), perCallMs); })]);
    } catch (error) {
      clearT(timer);
      return pack({ kind: 'rejected', name: describeName(error), message: describeMessage(error), args });
    }
    clearT(timer);
    if (value === undefined) return serialize({ kind: 'timeout' });
    return pack({ kind: 'resolved', value: value.v, args });
  }
  return pack({ kind: 'returned', value, args });
}
function describeName(error) { try { return error && typeof error === 'object' ? StringC(error.name) : typeof error; } catch { return '?'; } }
function describeMessage(error) { try { return error && typeof error === 'object' ? StringC(error.message) : StringC(error); } catch { return '?'; } }
async function load(abs) {
  if (abs.endsWith('.mjs') || abs.endsWith('.mts')) return import(url.pathToFileURL(abs).href);
  try { return require(abs); } catch (error) {
    if (error && (error.code === 'ERR_REQUIRE_ESM' || error.code === 'ERR_REQUIRE_ASYNC_MODULE')) return import(url.pathToFileURL(abs).href);
    throw error;
  }
}
(async () => {
  try { await load(path.resolve(relPath)); } catch (error) { write({ problem: 'its module did not load: ' + describe(error) }); exit(0); }
  const hook = globalThis[symbol];
  if (!hook || typeof hook.fn !== 'function') { write({ problem: 'the function was not found once its module loaded' }); exit(0); }
  const fixedHook = { fn: hook.fn, proto: hook.proto };
  const deadline = now() + budgetMs;
  const outcomes = [];
  for (let i = 0; i < inputs.length; i++) outcomes[i] = await callOne(fixedHook, inputs[i], deadline);
  write({ outcomes });
  exit(0);
})();
`;
