// What the node runners' round hooks (mochaHook.ts, jestRounds.ts, vitestRounds.ts, tapeRounds.ts) run between rounds, as JavaScript
// text inside their module: the shared run's plan and the file under repair found from the run's folder, a watchdog on a round's CPU time, the checks that a
// round left nothing a later one could meet (a patched built-in or core module, a new timer or handle), and whether
// the request's first pass should end its process.

/**
 * Needs `fs` and `path` in scope; defines `watchdog(ms, file)`, `located(name, first)`, `sharedPlan(planPath)`, `builtins()` and
 * `changed(now, before, expected?)`, `firstPassStop(rounds, rest, startupMs)`, `openHandles()` and `added(now, before)`. Evaluated when the hook loads, before any
 * project code runs, so the functions it holds are the originals.
 */
export const NODE_ROUND_GUARDS_SOURCE = `  var same = Object.is;
  // A round that loops without yielding holds the thread, so its limit is kept by a worker thread: it compares the
  // process's CPU time since the round began (waiting for a CPU does not count, as in a run of its own) with the
  // limit, writes which round ran past it and ends the process; the rounds before it have their reports written.
  function watchdog(ms, file) {
    if (!(ms > 0) || typeof SharedArrayBuffer !== 'function' || typeof Atomics !== 'object') return undefined;
    var state = new Int32Array(new SharedArrayBuffer(4));
    var source = "var d = require('worker_threads').workerData, seen = 0, from = 0;" +
      "setInterval(function () { var r = Atomics.load(d.state, 0), u = process.cpuUsage(), cpu = (u.user + u.system) / 1000;" +
      " if (r !== seen) { seen = r; from = cpu; return; }" +
      " if (r > 0 && cpu - from > d.ms) { try { require('fs').writeFileSync(d.file, (r - 1) + ' ' + Math.round(cpu - from)); } catch (e) {} process.kill(process.pid, 'SIGKILL'); } }, 100);";
    try {
      var worker = new (require('worker_threads').Worker)(source, { eval: true, workerData: { state: state, ms: ms, file: file } });
      worker.unref();
    } catch (e) { return undefined; }
    return { round: function (n) { Atomics.store(state, 0, n); } };
  }
  // The file under repair: its path from the run's folder or the nearest folder above (a command that starts in a
  // subfolder), holding the first candidate's text; none, and the run is an ordinary one.
  function located(name, first) {
    for (var at = process.cwd(), depth = 0; depth < 50; at = path.dirname(at), depth++) {
      var file = path.join(at, name);
      try { if (fs.readFileSync(file, 'utf8') === first) return file; } catch (e) { /* not here */ }
      if (path.dirname(at) === at) break;
    }
    return undefined;
  }
  // The shared run's plan (sharedRounds.ts), its folder, the file under repair and the texts of the candidates after
  // the first, as paths; undefined when the plan cannot be read or the file is not found: the run is an ordinary one.
  function sharedPlan(planPath) {
    try {
      var plan = JSON.parse(fs.readFileSync(planPath, 'utf8'));
      var dir = path.dirname(planPath);
      var target = located(plan.target, fs.readFileSync(path.join(dir, plan.first), 'utf8'));
      if (!target) return undefined;
      return { plan: plan, dir: dir, target: target, texts: plan.texts.map(function (name) { return path.join(dir, name); }) };
    } catch (e) { return undefined; }
  }
  // Every own property of the built-ins and core modules a test reaches most (what a candidate could patch to make a
  // later round fail, or pass), by name, with functions held from before any project code ran (a patched forEach or
  // ownKeys must not hide a change).
  var ownKeys = Reflect.ownKeys;
  var describeKey = Object.getOwnPropertyDescriptor;
  var bare = Object.create;
  var reached;
  function builtins() {
    if (!reached) {
      reached = [['Object', Object], ['Object.prototype', Object.prototype], ['Array', Array], ['Array.prototype', Array.prototype], ['Function.prototype', Function.prototype],
        ['String', String], ['String.prototype', String.prototype], ['Number', Number], ['Number.prototype', Number.prototype], ['Boolean.prototype', Boolean.prototype],
        ['Symbol', Symbol], ['Promise', Promise], ['Promise.prototype', Promise.prototype], ['RegExp.prototype', RegExp.prototype], ['Date', Date], ['Date.prototype', Date.prototype],
        ['Map.prototype', Map.prototype], ['Set.prototype', Set.prototype], ['WeakMap.prototype', WeakMap.prototype], ['Error', Error], ['Error.prototype', Error.prototype],
        ['JSON', JSON], ['Math', Math], ['Reflect', Reflect]];
      var modules = ['assert', 'util', 'events', 'fs', 'path'];
      for (var m = 0; m < modules.length; m++) try { reached[reached.length] = ['require("' + modules[m] + '")', require(modules[m])]; } catch (e) { /* not in this node */ }
    }
    var values = bare(null);
    for (var o = 0; o < reached.length; o++) {
      var keys = ownKeys(reached[o][1]);
      for (var k = 0; k < keys.length; k++) {
        var d = describeKey(reached[o][1], keys[k]);
        // Runners set how stacks are made: mocha the limit of frames, jest (source-map-support) how they are written.
        if (d && !(reached[o][1] === Error && (keys[k] === 'stackTraceLimit' || keys[k] === 'prepareStackTrace'))) values[reached[o][0] + '.' + String(keys[k])] = [d.value, d.get, d.set, reached[o][1]];
      }
    }
    return values;
  }
  // Node defines some core-module properties lazily (util.TextDecoder): a getter that, on first use, replaces itself
  // with the value it loads. Called again it gives that value (and puts it back, had a candidate replaced it); a
  // value a candidate set is another.
  function resolvedLazily(now, before) {
    if (typeof before[1] !== 'function' || now[1] || now[2]) return false;
    try { return same(before[1].call(before[3]), now[0]); } catch (e) { return false; }
  }
  // The first property that differs ('' for none), less those \`expected(name)\` allows.
  function changed(now, before, expected) {
    var name;
    var unexpected = function (name) { return !expected || !expected(name); };
    for (name in before) if (!(name in now) && unexpected(name)) return name;
    for (name in now) {
      if (!unexpected(name)) continue;
      if (!(name in before)) return name;
      for (var i = 0; i < 3; i++) if (!same(now[name][i], before[name][i]) && !resolvedLazily(now[name], before[name])) return name;
    }
    return '';
  }
  // After the request's first pass in this process: why it should end rather than run the \`rest\` of its rounds, or ''
  // to go on. The rounds left cost the mean of those loaded anew (after the first, which loads once what every round
  // shares); a process of their own would take its start and what its first round loads once.
  function firstPassStop(rounds, rest, startupMs) {
    var anew = rounds.slice(1);
    if (anew.length === 0) return '';
    var each = anew.reduce(function (sum, r) { return sum + (r.ms || 0); }, 0) / anew.length;
    var starting = startupMs + Math.max(0, (rounds[0].ms || 0) - each);
    if (rest * each < starting) return '';
    return 'rounds left: ' + rest + ', about ' + (rest * each / 1000).toFixed(1) + ' s; a process of their own: about ' + (starting / 1000).toFixed(1) + ' s to start';
  }
  // The kinds of the process's open timers and handles, less the output's own: stdout's pipe or terminal, and writes
  // to it still in flight (a reporter's lines, which a round of many failures leaves queued on a pipe:
  // SimpleWriteWrap ended 4 of 17 shared processes on flat). Undefined before node 17.3, which cannot list them:
  // there the check is not made, as before.
  var OUTPUT = ['Immediate', 'TTYWrap', 'PipeWrap', 'SimpleWriteWrap', 'WriteWrap'];
  function openHandles() {
    if (typeof process.getActiveResourcesInfo !== 'function') return undefined;
    return process.getActiveResourcesInfo().filter(function (kind) { return OUTPUT.indexOf(kind) < 0; });
  }
  // What \`now\` holds beyond \`before\`, kind by kind ("Timeout, FSReqCallback"); '' for nothing.
  function added(now, before) {
    if (!now || !before) return '';
    var rest = before.slice();
    return now.filter(function (kind) { var at = rest.indexOf(kind); if (at < 0) return true; rest.splice(at, 1); return false; }).join(', ');
  }
`;

/**
 * For the runners that load the project's modules into their own process and load them anew for each round (mocha's
 * hook, tape's): what a package's loading changed in the built-ins, as opposed to a round, and where the file under
 * repair was loaded from. Needs `Module`, `builtins`, `changed` and `same` (NODE_ROUND_GUARDS_SOURCE) in scope; defines
 * the state a shared run sets when its rounds begin (`kept`, the built-ins before any test file loaded, and `target`,
 * the file under repair), `resolved(request, parent)`, `loadWatched(load, self, args)` (Module._load, keeping what
 * packages change), `patchedBuiltin()`, `packageKeepsProjectModule(runnerPackage)` and `loadedOutsideTests(target, files)`.
 */
export const PROJECT_ROUND_GUARDS_SOURCE = `  var kept;
  var target;
  var targetLoaded = false; // no candidate's code has run before the file under repair first loads
  var packageMade = Object.create(null); // what packages changed in the built-ins as they loaded before it
  var packageDepth = 0;
  var IN_PACKAGE = /[\\\\/]node_modules[\\\\/]/; // a package's file: never loaded anew between rounds
  function resolved(request, parent) {
    try { return Module._resolveFilename(request, parent); } catch (e) { return ''; }
  }
  // A package module loaded before the file under repair first loads in a shared run, by its file: what its loading
  // changes in the built-ins is the package's (should.js, which mocha.opts' --require loads, defines
  // Object.prototype.should), not a candidate's: none has run yet. '' for anything else, and inside a package's
  // loading (it is counted from the outermost one). Once the file under repair has loaded, every change is a round's.
  function firstPackageLoad(request, parent) {
    if (!kept || targetLoaded || packageDepth > 0 || typeof request !== 'string') return '';
    var file = resolved(request, parent);
    return IN_PACKAGE.test(file) && !Module._cache[file] ? file : '';
  }
  // Module._load's original called as \`load.apply(self, args)\`, recording what a package's first loading changed.
  function loadWatched(load, self, args) {
    var exported;
    if (firstPackageLoad(args[0], args[1])) {
      var before = builtins();
      packageDepth++;
      try { exported = load.apply(self, args); } finally { packageDepth--; absorb(before); }
    } else exported = load.apply(self, args);
    if (kept && !targetLoaded && require.cache[target]) targetLoaded = true;
    return exported;
  }
  // Records what loading a package changed in the built-ins (each changed property as the package left it, null for
  // one it deleted). Not where the file under repair loaded inside it: a candidate's module then ran there too.
  function absorb(before) {
    if (require.cache[target]) return;
    var now = builtins();
    var found = Object.create(null);
    var name;
    while ((name = changed(now, before, function (n) { return n in found; }))) found[name] = true;
    for (name in found) packageMade[name] = name in now ? now[name] : null;
  }
  // Whether a built-in property is as a package's loading left it (a round may neither change nor undo that).
  function madeByPackage(now) {
    return function (name) {
      if (!(name in packageMade)) return false;
      var made = packageMade[name];
      if (made === null) return !(name in now);
      return name in now && same(now[name][0], made[0]) && same(now[name][1], made[1]) && same(now[name][2], made[2]);
    };
  }
  // The first built-in property that differs from before the test files loaded other than as packages left it, or
  // that a package changed and a round changed again or undid; '' for none.
  function patchedBuiltin() {
    var now = builtins();
    var byPackage = madeByPackage(now);
    var name = changed(now, kept, byPackage);
    if (name) return name;
    for (name in packageMade) if (!byPackage(name)) return name;
    return '';
  }
  // Whether a package other than the runner (\`runnerPackage\`, its files' pattern) holds a module of the project:
  // deleting it from the cache would not load it anew there.
  function packageKeepsProjectModule(runnerPackage) {
    var outside = function (file) { return !IN_PACKAGE.test(file); };
    return Object.keys(require.cache).some(function (key) {
      if (outside(key) || runnerPackage.test(key)) return false;
      var children = require.cache[key].children || [];
      return children.some(function (child) { return child && typeof child.filename === 'string' && outside(child.filename); });
    });
  }
  // Whether the first module that loaded the file under repair, followed up, came from something other than \`files\`.
  function loadedOutsideTests(target, files) {
    var loaded = require.cache[target];
    if (!loaded) return false;
    for (var m = loaded, depth = 0; m && depth < 100; m = m.parent, depth++) {
      if (files.indexOf(m.filename) >= 0) return false;
    }
    return true;
  }
`;
