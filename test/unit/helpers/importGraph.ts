// The import graph of a source tree, read with TypeScript's own parser: cycles (Tarjan) and runtime closures.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  readonly to: string;
  /** False for `import type` / `export type` and imports whose every name is a type: they vanish at run time. */
  readonly runtime: boolean;
}

/** Every file under `dir` (recursively) ending in `.ts`, as paths relative to `root`. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(root, dirname(from), specifier);
  const found = [`${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path) && statSync(path).isFile());
  return found ? relative(root, found).split(sep).join('/') : undefined;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return !clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** Relative imports of one file (static, re-exports and `import()`), resolved to files under `root`. */
export function importsOf(root: string, file: string): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, runtime: boolean) => {
    const to = resolveSpecifier(root, file, specifier);
    if (to) edges.push({ to, runtime });
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, !isTypeOnly(node));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

export type Graph = ReadonlyMap<string, readonly string[]>;

/** The file graph of `dir` (paths relative to `root`), type imports included: a type cycle is still a design cycle. */
export function fileGraph(root: string, dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root, dir)) graph.set(file, importsOf(root, file).map((edge) => edge.to));
  return graph;
}

/** The same graph with each file replaced by its folder one level under `dir` (edges inside a folder dropped). */
export function folderGraph(files: Graph, dir: string): Map<string, string[]> {
  const folderOf = (file: string) => file.slice(dir.length + 1).split('/')[0] ?? file;
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    for (const target of targets) if (target.startsWith(`${dir}/`) && folderOf(target) !== from) edges.add(folderOf(target));
    graph.set(from, edges);
  }
  return new Map([...graph].map(([folder, edges]) => [folder, [...edges].sort()]));
}

/** Strongly connected components with more than one member (or a self-loop): each is an import cycle. */
export function cycles(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}

/** Every file loaded at run time when `start` is (itself included): type-only imports are not followed. */
export function runtimeClosure(root: string, start: string): string[] {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of importsOf(root, file)) if (edge.runtime) pending.push(edge.to);
  }
  return [...seen].sort();
}
