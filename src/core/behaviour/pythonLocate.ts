// Finds the Python function the selection is in, how the replay harness reaches it from its module, and where the
// recording prologue goes: the Python half of what locate.ts does for JavaScript.
import type { Node } from 'web-tree-sitter';
import { parserFor } from '../mutation/grammars';

/** The selected Python function, located in the unmodified file. */
export interface PythonFunction {
  /** Its dotted name in its module: `page_count`, `Stats.median`, `Outer.Inner.f`. */
  readonly qualname: string;
  /** `function` at module level; for a method, the kind its decorators give it. */
  readonly kind: 'function' | 'instance' | 'class' | 'static';
  /** Where the prologue goes: before the first statement after the docstring (or after a lone docstring). */
  readonly insertAt: number;
  /**
   * What goes around it: `; ` joins it to a simple statement's line (or a lone docstring's), so no line moves; a
   * compound statement (`if`, `for`) gets it on a line of its own, the only case where the recording run's lines shift.
   */
  readonly before: string;
  readonly after: string;
}

const SIMPLE = new Set([
  'expression_statement', 'return_statement', 'pass_statement', 'raise_statement', 'assert_statement', 'delete_statement',
  'global_statement', 'nonlocal_statement', 'import_statement', 'import_from_statement', 'break_statement', 'continue_statement',
]);

function innermostFunction(root: Node, start: number, end: number): Node | undefined {
  let best: Node | undefined;
  const visit = (node: Node) => {
    if (node.startIndex > start || node.endIndex < end) return;
    if (node.type === 'function_definition') best = node;
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return best;
}

/** The decorators' names above a definition (`staticmethod`, `functools.cache`). */
function decorators(def: Node): string[] {
  const parent = def.parent;
  if (parent?.type !== 'decorated_definition') return [];
  return parent.namedChildren.filter((c) => c?.type === 'decorator').map((c) => (c?.text ?? '').replace(/^@\s*/, '').split('(')[0].trim());
}

/** The definition's container: the module, a class (with its node), or something a module-level name cannot reach. */
function containerOf(def: Node): Node | null {
  let at = def.parent;
  if (at?.type === 'decorated_definition') at = at.parent;
  if (at?.type === 'module') return at;
  if (at?.type === 'block' && at.parent?.type === 'class_definition') return at.parent;
  return null;
}

/** The dotted name a module-level statement reaches `fn` by, and its kind; or why it has none. */
function accessOf(fn: Node): { qualname: string; kind: PythonFunction['kind'] } | string {
  const name = fn.childForFieldName('name')?.text;
  if (!name) return 'it has no name';
  const names = [name];
  let container = containerOf(fn);
  const inClass = container?.type === 'class_definition';
  while (container?.type === 'class_definition') {
    const className = container.childForFieldName('name')?.text;
    if (!className) return 'its class has no name';
    names.unshift(className);
    container = containerOf(container);
  }
  if (container?.type !== 'module') return 'it is declared inside another function';
  if (!inClass) return { qualname: names.join('.'), kind: 'function' };
  const marks = decorators(fn);
  if (marks.some((d) => d === 'property' || d.endsWith('.setter') || d.endsWith('.getter') || d.endsWith('.deleter'))) return 'it is a property';
  if (name.startsWith('__') && !name.endsWith('__')) return 'its name is mangled (a private method)';
  const kind = marks.includes('staticmethod') ? 'static' : marks.includes('classmethod') ? 'class' : 'instance';
  return { qualname: names.join('.'), kind };
}

/** Where the prologue goes in `fn`'s body: after a docstring, joined to a simple statement's line when there is one. */
function insertion(text: string, body: Node): Pick<PythonFunction, 'insertAt' | 'before' | 'after'> | undefined {
  const statements = body.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
  const [first] = statements;
  if (!first) return undefined;
  const docstring = first.type === 'expression_statement' && first.namedChildren[0]?.type === 'string';
  const target = docstring ? statements[1] : first;
  // Only a docstring: the prologue follows it on its line, so it stays the docstring.
  if (!target) return { insertAt: first.endIndex, before: '; ', after: '' };
  const lineStart = text.lastIndexOf('\n', target.startIndex - 1) + 1;
  const indent = text.slice(lineStart, target.startIndex);
  if (SIMPLE.has(target.type) || !/^[ \t]*$/.test(indent)) return { insertAt: target.startIndex, before: '', after: '; ' };
  return { insertAt: target.startIndex, before: '', after: `\n${indent}` };
}

/** The function around [start, end) of a Python file, or why it cannot be replayed. */
export async function locatePython(text: string, start: number, end: number): Promise<{ located: PythonFunction } | { problem: string }> {
  const tree = (await parserFor('python')).parse(text);
  if (!tree) return { problem: 'the file could not be parsed' };
  try {
    const fn = innermostFunction(tree.rootNode, start, end);
    if (!fn) return { problem: 'the selection is not inside a function' };
    const access = accessOf(fn);
    if (typeof access === 'string') return { problem: `the function cannot be called from outside: ${access}` };
    const body = fn.childForFieldName('body');
    const at = body ? insertion(text, body) : undefined;
    if (!at) return { problem: 'the function has no body' };
    return { located: { ...access, ...at } };
  } finally {
    tree.delete();
  }
}
