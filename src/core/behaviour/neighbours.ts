// Inputs near the ones the tests used: each argument nudged (±1 and boundaries, empty / one-element / reordered /
// duplicated arrays, empty and one-character strings), same-type arguments swapped, then random values of the
// observed types. Deterministic (seeded), so two runs of the check try the same inputs.
import { inspect } from 'node:util';
import { seededRandom } from '../statistics/random';

/** One call's arguments and, for an instance method, its `this` (own fields only). */
export interface ReplayInput {
  readonly args: readonly unknown[];
  readonly self?: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Values one step from `value`, of the same type. */
export function valueNeighbours(value: unknown, depth = 0): unknown[] {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return [0];
    const near = Number.isInteger(value)
      ? [value - 1, value + 1, 0, 1, -1, -value, value * 2, Math.trunc(value / 2)]
      : [value - 1, value + 1, 0, Math.floor(value), Math.ceil(value), -value];
    return near;
  }
  if (typeof value === 'bigint') return [value - 1n, value + 1n, 0n];
  if (typeof value === 'boolean') return [!value];
  if (typeof value === 'string') {
    const chars = [...value];
    return ['', chars[0] ?? 'a', chars.slice(1).join(''), chars.slice(0, -1).join(''), value + (chars[chars.length - 1] ?? 'a'), ` ${value}`, value.toUpperCase()];
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [[], value.length > 0 ? [value[0]] : [undefined], [...value].reverse(), value.length > 0 ? [value[0], ...value] : [], value.slice(0, -1), value.slice(1)];
    if (value.length > 1) out.push([...value.slice(1), value[0]]);
    if (value.every((v) => typeof v === 'number')) out.push([...value].sort((a, b) => (a as number) - (b as number)), [...value, value[value.length - 1] ?? 0]);
    if (depth < 1) {
      for (let i = 0; i < Math.min(value.length, 3); i++) {
        for (const near of valueNeighbours(value[i], depth + 1).slice(0, 2)) out.push(value.map((v, j) => (j === i ? near : v)));
      }
    }
    return out;
  }
  if (isPlainObject(value) && depth < 1) {
    const out: unknown[] = [];
    for (const key of Object.keys(value).slice(0, 5)) {
      for (const near of valueNeighbours(value[key], depth + 1).slice(0, 3)) out.push({ ...value, [key]: near });
    }
    return out;
  }
  return [];
}

/** A random value shaped like `value` (a number of its sign range, a string of its characters, an array of its elements). */
export function randomLike(value: unknown, random: () => number, depth = 0): unknown {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return value;
    const span = Math.max(10, 2 * Math.ceil(Math.abs(value)));
    return Number.isInteger(value) ? int(-span, span) : Math.round((random() * 2 - 1) * span * 100) / 100;
  }
  if (typeof value === 'bigint') return BigInt(int(-20, 20));
  if (typeof value === 'boolean') return random() < 0.5;
  if (typeof value === 'string') {
    const pool = value.length > 0 ? [...value] : ['a', 'b', ' '];
    return Array.from({ length: int(0, Math.max(5, pool.length + 2)) }, () => pool[int(0, pool.length - 1)]).join('');
  }
  if (Array.isArray(value) && depth < 2) {
    if (value.length === 0) return [];
    return Array.from({ length: int(0, Math.max(5, value.length + 2)) }, () => randomLike(value[int(0, value.length - 1)], random, depth + 1));
  }
  if (isPlainObject(value) && depth < 2) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, randomLike(v, random, depth + 1)]));
  return value;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every one-step neighbour of one input: one argument nudged, or two arguments of the same type swapped. */
function inputNeighbours(input: ReplayInput): ReplayInput[] {
  const out: ReplayInput[] = [];
  const { args } = input;
  const withArg = (i: number, value: unknown): ReplayInput => ({ ...input, args: args.map((a, j) => (j === i ? value : a)) });
  for (let i = 0; i < args.length; i++) for (const near of valueNeighbours(args[i])) out.push(withArg(i, near));
  // A method's `this` is an input too: each of its fields nudged as an argument would be.
  if (isPlainObject(input.self)) {
    const self = input.self;
    for (const key of Object.keys(self).slice(0, 8)) for (const near of valueNeighbours(self[key])) out.push({ ...input, self: { ...self, [key]: near } });
  }
  for (let i = 0; i < args.length; i++) {
    for (let j = i + 1; j < args.length; j++) {
      if (typeOf(args[i]) === typeOf(args[j])) out.push({ ...input, args: args.map((a, k) => (k === i ? args[j] : k === j ? args[i] : a)) });
    }
  }
  return out;
}

const KEY_VIEW = { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity, breakLength: Infinity, sorted: true, compact: true } as const;

/**
 * A key equal for equal inputs. Not the structured-clone bytes: V8 writes 18 as a small integer or as a double
 * depending on how it was computed, so the same input would be tried twice.
 */
export function inputKey(input: ReplayInput): string {
  return inspect(input, KEY_VIEW);
}

/**
 * Up to `budget` new inputs: the one-step neighbours of every observed input, taken in turn (so each observed input
 * gets its near ones before the budget runs out), then random inputs shaped like them. Observed inputs and repeats
 * are left out.
 */
export function generateInputs(observed: readonly ReplayInput[], budget: number, seed = 28): ReplayInput[] {
  const seen = new Set(observed.map(inputKey));
  const out: ReplayInput[] = [];
  const take = (input: ReplayInput) => {
    if (out.length >= budget) return;
    let key: string;
    try {
      key = inputKey(input);
    } catch {
      return;
    }
    if (seen.has(key)) return;
    seen.add(key);
    out.push(input);
  };
  const lists = observed.map(inputNeighbours);
  for (let round = 0; out.length < budget && lists.some((list) => round < list.length); round++) {
    for (const list of lists) if (round < list.length) take(list[round]);
  }
  const random = seededRandom(seed);
  for (let tries = 0; out.length < budget && observed.length > 0 && tries < budget * 4; tries++) {
    const base = observed[tries % observed.length];
    take({ ...base, args: base.args.map((a) => randomLike(a, random)), ...(base.self !== undefined ? { self: randomLike(base.self, random) } : {}) });
  }
  return out;
}
