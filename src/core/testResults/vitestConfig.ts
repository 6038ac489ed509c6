// Vitest's side channel for a config that names reporters: a wrapper config that loads the user's and adds the json reporter.

/** The wrapper's file name in the run's output folder. */
export const VITEST_CONFIG_FILE = 'verified-fix.vitest.config.mjs';

/**
 * The variable naming the report; the config the user's command gave with `--config`, if any, goes in the next one;
 * the last names the assertion guard (assertGuard.ts) the wrapper adds to the setup files.
 */
export const VITEST_REPORT_VARIABLE = 'VERIFIED_FIX_VITEST_REPORT';
export const VITEST_USER_CONFIG_VARIABLE = 'VERIFIED_FIX_VITEST_CONFIG';
export const VITEST_GUARD_VARIABLE = 'VERIFIED_FIX_VITEST_GUARD';
/** The variable naming the shared stage 1's reporter (vitestRounds.ts), which the wrapper adds after the json reporter. */
export const VITEST_ROUNDS_VARIABLE = 'VERIFIED_FIX_VITEST_ROUNDS';

/** Where vitest looks for its config, in its own order. */
export const VITEST_CONFIG_NAMES = ['vitest.config', 'vite.config'].flatMap((stem) => ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map((ext) => `${stem}.${ext}`));

/**
 * The wrapper, given to vitest as `--config`. Reporters on vitest's command line replace the config's, so the
 * user's reporters are kept by going through the config instead: the wrapper finds the user's config (the one
 * `--config` named, else the first of VITEST_CONFIG_NAMES in the folder vitest runs in), loads it with vite's own
 * `loadConfigFromFile` (the vite next to the project's vitest: TypeScript configs, config functions, relative
 * imports all as vitest would), and returns it with `['json', { outputFile }]` after its reporters (`default`
 * when it names none) and the assertion guard after its setup files (and those of each inline project that does not
 * extend the root config, which would not get the root's). A `vitest.workspace` file beside the user's
 * config (or, without one, in the folder vitest runs in) is named in `test.workspace`, since vitest looks for it
 * beside the config it was given. The config's `bail` is set to 0, its inline projects' too. Vite 3 to 7.
 */
export const VITEST_CONFIG_SOURCE = `// Verified Fix: the user's vitest config with a json report and an assertion guard added for the engine. Written by the engine; not part of the project.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const NAMES = ${JSON.stringify(VITEST_CONFIG_NAMES)};
const WORKSPACES = ["vitest.workspace.ts", "vitest.workspace.mts", "vitest.workspace.js", "vitest.workspace.mjs", "vitest.workspace.json", "vitest.projects.ts", "vitest.projects.js"];

function packageDir(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

export default async function verifiedFixConfig(env) {
  const cwd = process.cwd();
  const given = process.env.${VITEST_USER_CONFIG_VARIABLE};
  const file = given ? resolve(cwd, given) : NAMES.map((name) => join(cwd, name)).find((path) => existsSync(path));
  let config = {};
  if (file) {
    const vitest = packageDir("vitest", cwd);
    const vite = (vitest && packageDir("vite", vitest)) || packageDir("vite", cwd);
    if (!vite) throw new Error("Verified Fix: vite, which loads the vitest config, was not found next to vitest");
    const entry = JSON.parse(readFileSync(join(vite, "package.json"), "utf8")).module || "dist/node/index.js";
    const { loadConfigFromFile } = await import(pathToFileURL(join(vite, entry)).href);
    const loaded = await loadConfigFromFile(env, file, cwd);
    config = (loaded && loaded.config) || {};
  }
  const test = { ...(config.test || {}) };
  // The config's bail ends the run at the first failing test file: the baseline would name only that file's failing
  // tests, and its time would bound every run. The runs the engine reads run every test; a --bail on the command
  // line (stage 1 adds one) still applies, as vitest takes it over the config's. An inline project's own bail
  // would end the whole run too (projects named by a path or a glob are configs vitest loads itself: not covered).
  if (test.bail) test.bail = 0;
  for (const key of ["projects", "workspace"]) {
    if (Array.isArray(test[key])) test[key] = test[key].map((project) => (project && typeof project === "object" && project.test && project.test.bail ? { ...project, test: { ...project.test, bail: 0 } } : project));
  }
  const own = test.reporters === undefined ? ["default"] : Array.isArray(test.reporters) ? test.reporters : [test.reporters];
  const names = own.map((reporter) => (Array.isArray(reporter) ? reporter[0] : reporter)).filter((name) => typeof name === "string");
  const outputFile = typeof test.outputFile === "string" ? Object.fromEntries(names.map((name) => [name, test.outputFile])) : { ...(test.outputFile || {}) };
  outputFile.json = process.env.${VITEST_REPORT_VARIABLE};
  const rounds = process.env.${VITEST_ROUNDS_VARIABLE};
  test.reporters = [...own.filter((reporter) => reporter !== "json"), "json", ...(rounds ? [rounds] : [])];
  test.outputFile = outputFile;
  const guard = process.env.${VITEST_GUARD_VARIABLE};
  const guarded = (own) => ({ ...own, setupFiles: [...(own.setupFiles === undefined ? [] : Array.isArray(own.setupFiles) ? own.setupFiles : [own.setupFiles]), guard] });
  if (guard) {
    Object.assign(test, guarded(test));
    // An inline project takes the root's setup files only when it extends the root config: the others get the
    // guard in their own. Projects named by a path or a glob are configs vitest loads itself (not covered).
    for (const key of ["projects", "workspace"]) {
      if (Array.isArray(test[key])) test[key] = test[key].map((project) => (project && typeof project === "object" && project.extends !== true ? { ...project, test: guarded(project.test || {}) } : project));
    }
  }
  if (test.workspace === undefined && test.projects === undefined) {
    const workspace = WORKSPACES.map((name) => join(file ? dirname(file) : cwd, name)).find((path) => existsSync(path));
    if (workspace) test.workspace = workspace;
  }
  return { ...config, test };
}
`;
