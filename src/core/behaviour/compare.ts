// The comparison itself, on outcomes already read: per fix against the unmodified function, fixes into behaviours,
// and for each two behaviours the shortest inputs that tell them apart. Pure: unit-tested without a run.
import type { DistinguishingInput, FixBehaviour, PairDifference } from '../contract/behaviour';
import type { ReplayInput } from './neighbours';
import { decided, sameOutcome, showCall, showOutcome } from './outcomes';
import type { Outcome } from './outcomes';

/** Distinguishing inputs shown per fix or pair. */
export const EXAMPLES = 3;
/** Outcomes such as NaN or Infinity (a division by zero) come after ordinary ones: the shortest input is not always the telling one. */
const ODD = /\b(NaN|Infinity)\b/;

export interface Replayed {
  readonly name: string;
  readonly inputs: readonly ReplayInput[];
  /** Each input as a call, when the replay showed them itself (Python's values are shown in Python). */
  readonly calls?: readonly string[];
  /** Per input: whether a failing test called the function with it. */
  readonly fromFailingTests: readonly boolean[];
  readonly original: readonly Outcome[];
  /** Per verified fix (index, best first): its outcomes, or why it could not be replayed. */
  readonly fixes: ReadonlyArray<{ readonly index: number; readonly outcomes?: readonly Outcome[]; readonly problem?: string }>;
}

/** The inputs where `a` and `b` both decided and differ, shortest call first, as examples. */
function differences(replayed: Replayed, a: readonly Outcome[], b: readonly Outcome[], only: (i: number) => boolean = () => true) {
  const at: number[] = [];
  for (let i = 0; i < replayed.inputs.length; i++) {
    if (only(i) && decided(a[i]) && decided(b[i]) && !sameOutcome(a[i], b[i])) at.push(i);
  }
  const examples: DistinguishingInput[] = at
    .map((i) => {
      const first = showOutcome(a[i], replayed.inputs[i]);
      const second = showOutcome(b[i], replayed.inputs[i]);
      return { i, call: replayed.calls?.[i] ?? showCall(replayed.name, replayed.inputs[i]), first, second, odd: ODD.test(first) || ODD.test(second) ? 1 : 0 };
    })
    .sort((x, y) => x.odd - y.odd || x.call.length - y.call.length || x.i - y.i)
    .slice(0, EXAMPLES)
    .map(({ call, first, second }) => ({ call, first, second }));
  return { count: at.length, examples };
}

function bothDecided(a: readonly Outcome[], b: readonly Outcome[]): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (decided(a[i]) && decided(b[i])) n++;
  return n;
}

/** Each fix against the unmodified function: what it changes, and what of that lies beyond the failing tests. */
export function fixBehaviours(replayed: Replayed): FixBehaviour[] {
  return replayed.fixes.map(({ index, outcomes, problem }) => {
    if (!outcomes) return { index, tried: 0, changed: 0, changedBeyondFailingTests: 0, examples: [], problem: problem ?? 'it was not replayed' };
    const all = differences(replayed, replayed.original, outcomes);
    const beyond = differences(replayed, replayed.original, outcomes, (i) => !replayed.fromFailingTests[i]);
    return { index, tried: bothDecided(replayed.original, outcomes), changed: all.count, changedBeyondFailingTests: beyond.count, examples: beyond.examples };
  });
}

/** Fixes with the same outcome on every input both decided, in ranking order; each group keeps its best fix first. */
export function groupFixes(replayed: Replayed): { groups: number[][]; pairs: PairDifference[] } {
  const groups: Array<{ indices: number[]; outcomes: readonly Outcome[] }> = [];
  for (const { index, outcomes } of replayed.fixes) {
    if (!outcomes) continue;
    const same = groups.find((g) => differences(replayed, g.outcomes, outcomes).count === 0);
    if (same) same.indices.push(index);
    else groups.push({ indices: [index], outcomes });
  }
  const pairs: PairDifference[] = [];
  for (let a = 0; a < groups.length; a++) {
    for (let b = a + 1; b < groups.length; b++) {
      const { count, examples } = differences(replayed, groups[a].outcomes, groups[b].outcomes);
      pairs.push({ first: groups[a].indices[0], second: groups[b].indices[0], differing: count, examples });
    }
  }
  return { groups: groups.map((g) => g.indices), pairs };
}
