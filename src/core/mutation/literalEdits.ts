// The literal family: a number or string literal replaced by another literal of the same type used in the function.
import type { Node } from 'web-tree-sitter';
import { replacement } from './edit';
import type { MutationEdit } from './edit';
import type { FamilyContext } from './syntaxFacts';

/** Other literals offered per literal, nearest first. */
const ALTERNATIVES = 3;
/** Products and quotients of literals offered per literal. */
const SCALED = 2;

/** Literal edits of `node` when it is a number, and of its string children (strings are never entered). */
export function literalEditsAt(node: Node, ctx: FamilyContext): MutationEdit[] {
  const out: MutationEdit[] = [];
  const { tables } = ctx;
  if (node.isNamed && tables.numbers.has(node.type)) {
    const pool = ctx.facts(node).numbers;
    const offered = alternatives(node, pool, out);
    scaled(node, pool, offered, out);
  }
  for (const child of node.namedChildren) {
    if (child && tables.strings.has(child.type)) {
      const strings = ctx.facts(child).strings;
      if (strings.some((s) => s.id === child.id)) alternatives(child, strings, out);
    }
  }
  return out;
}

function alternatives(site: Node, pool: readonly Node[], out: MutationEdit[]): string[] {
  const texts: string[] = [];
  const nearest = pool
    .filter((n) => n.type === site.type && n.text !== site.text)
    .sort((a, b) => Math.abs(a.startIndex - site.startIndex) - Math.abs(b.startIndex - site.startIndex) || a.startIndex - b.startIndex);
  for (const n of nearest) if (!texts.includes(n.text) && texts.length < ALTERNATIVES) texts.push(n.text);
  texts.forEach((t, rank) => out.push(replacement(site.startIndex, site.endIndex, site.text, t, 'literal', rank)));
  return texts;
}

/** Products of units: `t / 60` → `t / 3600` when the function also has a 60 (or `60 * 24`'s 1440 from a 24). */
function scaled(site: Node, pool: readonly Node[], offered: readonly string[], out: MutationEdit[]): void {
  if (!/^\d+$/.test(site.text)) return;
  const n = Number(site.text);
  const values: number[] = [];
  for (const other of pool) {
    if (!/^\d+$/.test(other.text)) continue;
    const m = Number(other.text);
    if (m < 2 || n < 2) continue;
    const product = n * m;
    if (product <= 1e7 && !values.includes(product)) values.push(product);
    if (n % m === 0 && n / m > 1 && !values.includes(n / m)) values.push(n / m);
  }
  values
    .filter((v) => !offered.includes(String(v)) && v !== n)
    .slice(0, SCALED)
    .forEach((v, rank) => out.push(replacement(site.startIndex, site.endIndex, site.text, String(v), 'literal', offered.length + rank)));
}
