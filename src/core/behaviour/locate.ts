// Finds the function the selection is in and how a module-level statement can reach it: what recording and replay need.
import type { Node } from 'web-tree-sitter';
import { grammarFor, parserFor } from '../mutation/grammars';

const FUNCTION_TYPES = new Set(['function_declaration', 'generator_function_declaration', 'function_expression', 'function', 'generator_function', 'arrow_function', 'method_definition']);

/** The selected function, located in the unmodified file. */
export interface LocatedFunction {
  /** How calls are shown: `pageCount`, `Stats#median` (an instance method), `Stats.of` (a static one). */
  readonly display: string;
  /** An expression valid at the end of the module that evaluates to the function (`Stats.prototype.median`). */
  readonly access: string;
  /** For an instance method, the expression of its class's prototype: the replayed `this` gets it. */
  readonly prototype?: string;
  /** Where the recording prologue goes (just inside the body's `{`), or the expression body an arrow has. */
  readonly bodyStart: number;
  readonly bodyEnd: number;
  /** An arrow function's body is an expression: the prologue wraps it in a block. */
  readonly expressionBody: boolean;
  /** Parameter names an arrow function records (it has no `arguments`); undefined for other functions. */
  readonly arrowParameters?: readonly string[];
  readonly typescript: boolean;
}

export type Located = { readonly located: LocatedFunction } | { readonly problem: string };

function innermostFunction(root: Node, start: number, end: number): Node | undefined {
  let best: Node | undefined;
  const visit = (node: Node) => {
    if (node.startIndex > start || node.endIndex < end) return;
    if (FUNCTION_TYPES.has(node.type)) best = node;
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  if (best) return best;
  // A selection spanning more than one function: the first function inside it.
  const inside: Node[] = [];
  const collect = (node: Node) => {
    if (FUNCTION_TYPES.has(node.type) && node.startIndex >= start && node.endIndex <= end) inside.push(node);
    else for (const child of node.namedChildren) if (child) collect(child);
  };
  collect(root);
  return inside[0];
}

/** True when `node`'s parents up to the program are only declarations and exports (no other function, no block). */
function atModuleLevel(node: Node | null): boolean {
  for (let at = node; at; at = at.parent) {
    if (at.type === 'program') return true;
    if (!['export_statement', 'lexical_declaration', 'variable_declaration', 'variable_declarator', 'expression_statement', 'assignment_expression', 'class_declaration', 'class_body', 'class'].includes(at.type)) return false;
  }
  return false;
}

/** The module-level name of a function, or why it has none a statement can reach. */
function accessOf(fn: Node): { display: string; access: string; prototype?: string } | string {
  const parent = fn.parent;
  if (fn.type === 'method_definition') {
    const cls = parent?.parent;
    const className = cls?.type === 'class_declaration' ? cls.childForFieldName('name')?.text : undefined;
    const name = fn.childForFieldName('name');
    if (!className || !name || name.type !== 'property_identifier') return 'it is a method of a class without a module-level name';
    if (!atModuleLevel(cls ?? null)) return 'its class is declared inside a function';
    if (['get', 'set'].includes(fn.children.find((c) => c?.type === 'get' || c?.type === 'set')?.type ?? '')) return 'it is a getter or setter';
    if (name.text === 'constructor') return 'it is a constructor';
    const isStatic = fn.children.some((c) => c?.type === 'static');
    return isStatic ? { display: `${className}.${name.text}`, access: `${className}.${name.text}` } : { display: `${className}#${name.text}`, access: `${className}.prototype.${name.text}`, prototype: `${className}.prototype` };
  }
  if (fn.type === 'function_declaration' || fn.type === 'generator_function_declaration') {
    const name = fn.childForFieldName('name')?.text;
    if (!name) return 'it has no name';
    return atModuleLevel(parent) ? { display: name, access: name } : 'it is declared inside another function';
  }
  if (parent?.type === 'variable_declarator' && parent.childForFieldName('value')?.id === fn.id) {
    const name = parent.childForFieldName('name');
    if (name?.type !== 'identifier') return 'it has no name';
    return atModuleLevel(parent) ? { display: name.text, access: name.text } : 'it is declared inside another function';
  }
  if (parent?.type === 'assignment_expression' && parent.childForFieldName('right')?.id === fn.id) {
    const left = parent.childForFieldName('left');
    if (!left || !/^(module\.)?exports(\.[A-Za-z_$][\w$]*)*$/.test(left.text)) return 'it is assigned to something other than an export';
    const display = left.text.split('.').pop() ?? left.text;
    return atModuleLevel(parent) ? { display: display === 'exports' ? 'module.exports' : display, access: left.text } : 'it is declared inside another function';
  }
  return 'it is an anonymous function (a callback or a value) that no module-level name reaches';
}

/** Arrow parameters as plain names, or undefined when one is a pattern (its argument cannot be recovered). */
function arrowParameters(fn: Node): string[] | undefined {
  const single = fn.childForFieldName('parameter');
  if (single) return single.type === 'identifier' ? [single.text] : undefined;
  const params = fn.childForFieldName('parameters');
  const names: string[] = [];
  for (const param of params?.namedChildren ?? []) {
    if (!param) continue;
    const target = ['required_parameter', 'optional_parameter'].includes(param.type) ? param.childForFieldName('pattern') : param.type === 'assignment_pattern' ? param.childForFieldName('left') : param;
    if (target?.type === 'identifier') names.push(target.text);
    else if (target?.type === 'rest_pattern' && target.namedChildren[0]?.type === 'identifier') names.push(`...${target.namedChildren[0].text}`);
    else return undefined;
  }
  return names;
}

/** The function around [start, end) of `text` and how to reach it, or why it cannot be replayed. */
export async function locateFunction(languageId: string, text: string, start: number, end: number): Promise<Located> {
  const grammar = grammarFor(languageId);
  if (grammar !== 'javascript' && grammar !== 'typescript' && grammar !== 'tsx') return { problem: `the behaviour check replays JavaScript and TypeScript functions; this file is ${languageId}` };
  const tree = (await parserFor(grammar)).parse(text);
  if (!tree) return { problem: 'the file could not be parsed' };
  try {
    const fn = innermostFunction(tree.rootNode, start, end);
    if (!fn) return { problem: 'the selection is not inside a function' };
    const access = accessOf(fn);
    if (typeof access === 'string') return { problem: `the function cannot be called from outside: ${access}` };
    const body = fn.childForFieldName('body');
    if (!body) return { problem: 'the function has no body' };
    const expressionBody = body.type !== 'statement_block';
    let params: string[] | undefined;
    if (fn.type === 'arrow_function') {
      params = arrowParameters(fn);
      if (!params) return { problem: 'an arrow function with destructured parameters: its arguments cannot be recorded' };
    }
    return {
      located: {
        ...access,
        bodyStart: expressionBody ? body.startIndex : body.startIndex + 1,
        bodyEnd: body.endIndex,
        expressionBody,
        ...(params ? { arrowParameters: params } : {}),
        typescript: grammar !== 'javascript',
      },
    };
  } finally {
    tree.delete();
  }
}
