// Finds and loads the tree-sitter runtime and grammar .wasm files, once per process, for the mutation generator.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as TreeSitter from 'web-tree-sitter';

// An `import` statement makes esbuild take web-tree-sitter's ES module build even for a CommonJS bundle, and that
// build needs `import.meta.url`, which CommonJS bundles lack; `require` selects the package's CommonJS build.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Language, Parser } = require('web-tree-sitter') as typeof TreeSitter;

/** The grammar families the mutation generator knows; each has its own node-type profile. */
export type GrammarName = 'javascript' | 'typescript' | 'tsx' | 'python' | 'java' | 'go';

/**
 * A grammar's entry in a per-language table: TypeScript and TSX share JavaScript's, since what the tables describe
 * (operators, statements, calls) is the same and the types are never touched.
 */
export function forGrammar<T>(grammar: GrammarName, table: { readonly javascript: T; readonly python: T; readonly java: T; readonly go: T }): T {
  return grammar === 'typescript' || grammar === 'tsx' ? table.javascript : table[grammar];
}

/** VS Code language ids → grammar. Languages missing here get no mutants (the provider yields nothing). */
const grammarByLanguageId: Readonly<Record<string, GrammarName>> = {
  javascript: 'javascript',
  javascriptreact: 'javascript',
  typescript: 'typescript',
  typescriptreact: 'tsx',
  python: 'python',
  java: 'java',
  go: 'go',
};

/** The grammar for a VS Code language id, or undefined when the generator does not support it. */
export function grammarFor(languageId: string): GrammarName | undefined {
  return grammarByLanguageId[languageId];
}

/** Every .wasm file the bundles need: the runtime and one per grammar. esbuild.js copies the same list; a test checks. */
export const wasmFiles: readonly string[] = [
  'tree-sitter.wasm',
  ...(['javascript', 'typescript', 'tsx', 'python', 'java', 'go'] as const).map((g) => `tree-sitter-${g}.wasm`),
];

/**
 * Where a .wasm file lives. The bundles (dist/cli.js, dist/extension.js) find the copies esbuild.js puts in
 * `dist/grammars/`; the TypeScript sources run under tsx find the npm packages in `node_modules`, looked up from
 * this file's folder upwards because `require.resolve` would be rewritten by the bundler.
 */
export function locateWasm(fileName: string, from: string = __dirname): string {
  const bundled = join(from, 'grammars', fileName);
  if (existsSync(bundled)) return bundled;
  const packagePath =
    fileName === 'tree-sitter.wasm'
      ? join('web-tree-sitter', fileName)
      : join('@vscode', 'tree-sitter-wasm', 'wasm', fileName);
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', packagePath);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error(`Cannot find ${fileName} (looked in ${join(from, 'grammars')} and node_modules above ${from})`);
}

let runtimeReady: Promise<void> | undefined;
const languages = new Map<GrammarName, Promise<TreeSitter.Language>>();
const parsers = new Map<GrammarName, TreeSitter.Parser>();

/** Starts the WebAssembly runtime once; later calls share the same promise. */
function initRuntime(): Promise<void> {
  runtimeReady ??= Parser.init({ locateFile: () => locateWasm('tree-sitter.wasm') }).catch((error: unknown) => {
    runtimeReady = undefined; // let a later request try again rather than caching the failure forever
    throw error;
  });
  return runtimeReady;
}

/**
 * A parser for the grammar, created on first use and then reused: loading a grammar takes tens of
 * milliseconds, a parse of a small file well under one. Callers must not keep it across awaits they do not own,
 * since it is shared (parsing is synchronous, so interleaving between awaits is safe).
 */
export async function parserFor(grammar: GrammarName): Promise<TreeSitter.Parser> {
  const existing = parsers.get(grammar);
  if (existing) return existing;
  await initRuntime();
  let language = languages.get(grammar);
  if (!language) {
    language = Language.load(locateWasm(`tree-sitter-${grammar}.wasm`));
    languages.set(grammar, language);
    language.catch(() => languages.delete(grammar));
  }
  const loaded = await language;
  const again = parsers.get(grammar); // another caller may have finished first
  if (again) return again;
  const parser = new Parser();
  parser.setLanguage(loaded);
  parsers.set(grammar, parser);
  return parser;
}
