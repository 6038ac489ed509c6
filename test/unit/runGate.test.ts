// The run gate: shared work overlaps, alone work overlaps nothing, a waiting alone is not starved, order is kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RunGate } from '../../src/core/execution/runGate';
import { seededRandom } from '../../src/core/statistics/random';

/** Lets every pending promise callback and timer of this turn run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

interface Job {
  readonly name: string;
  readonly alone: boolean;
  /** Resolves when the gate lets the work start. */
  readonly started: Promise<void>;
  /** The gate's promise for the work's result. */
  readonly result: Promise<string>;
  finish(): void;
  fail(error: Error): void;
}

/** Work that records its start and end in `events` and ends only when the test says so. */
function submit(gate: RunGate, events: string[], name: string, alone: boolean): Job {
  let onStart!: () => void;
  const started = new Promise<void>((resolve) => (onStart = resolve));
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const work = async () => {
    events.push(`start ${name}`);
    onStart();
    try {
      await done;
      return name;
    } finally {
      events.push(`end ${name}`);
    }
  };
  const result = alone ? gate.alone(work) : gate.shared(work);
  result.catch(() => undefined); // observed by the tests that expect it
  return { name, alone, started, result, finish, fail };
}

/** Which work is running now, from the events so far. */
function running(events: readonly string[]): string[] {
  const now = new Set<string>();
  for (const event of events) {
    const [kind, name] = event.split(' ');
    if (kind === 'start') now.add(name);
    else now.delete(name);
  }
  return [...now].sort();
}

describe('RunGate', () => {
  it('runs shared work side by side', async () => {
    const gate = new RunGate();
    const events: string[] = [];
    const jobs = ['a', 'b', 'c'].map((name) => submit(gate, events, name, false));
    await settle();
    assert.deepEqual(running(events), ['a', 'b', 'c']);
    jobs[1].finish();
    assert.equal(await jobs[1].result, 'b');
    assert.deepEqual(running(events), ['a', 'c']);
    jobs[0].finish();
    jobs[2].finish();
    assert.deepEqual(await Promise.all(jobs.map((job) => job.result)), ['a', 'b', 'c']);
  });

  it('starts alone work only when nothing runs, and nothing beside it', async () => {
    const gate = new RunGate();
    const events: string[] = [];
    const a = submit(gate, events, 'a', false);
    const x = submit(gate, events, 'x', true);
    await settle();
    assert.deepEqual(running(events), ['a']);
    a.finish();
    await x.started;
    assert.deepEqual(running(events), ['x']);
    const b = submit(gate, events, 'b', false);
    const y = submit(gate, events, 'y', true);
    await settle();
    assert.deepEqual(running(events), ['x'], 'shared and alone arrivals wait while alone work runs');
    x.finish();
    await b.started;
    await settle();
    assert.deepEqual(running(events), ['b']);
    b.finish();
    await y.started;
    y.finish();
    await Promise.all([a.result, x.result, b.result, y.result]);
    assert.deepEqual(events, ['start a', 'end a', 'start x', 'end x', 'start b', 'end b', 'start y', 'end y']);
  });

  it('a waiting alone blocks later shared arrivals, so a steady stream cannot starve it', async () => {
    const gate = new RunGate();
    const events: string[] = [];
    const first = submit(gate, events, 's0', false);
    const x = submit(gate, events, 'x', true);
    const later = [1, 2, 3].map((i) => submit(gate, events, `s${i}`, false));
    await settle();
    assert.deepEqual(running(events), ['s0'], 'later shared work does not join the running shared work');
    first.finish();
    await x.started;
    await settle();
    assert.deepEqual(running(events), ['x']);
    x.finish();
    await Promise.all(later.map((job) => job.started));
    assert.deepEqual(running(events), ['s1', 's2', 's3']);
    for (const job of later) job.finish();
    await Promise.all(later.map((job) => job.result));
  });

  it('keeps the order of arrival: shared work behind a waiting alone does not jump it', async () => {
    const gate = new RunGate();
    const events: string[] = [];
    const x = submit(gate, events, 'x', true);
    const a = submit(gate, events, 'a', false);
    const b = submit(gate, events, 'b', false);
    const y = submit(gate, events, 'y', true);
    const c = submit(gate, events, 'c', false);
    await settle();
    x.finish();
    await Promise.all([a.started, b.started]);
    await settle();
    assert.deepEqual(running(events), ['a', 'b'], 'c waits behind y although it could share with a and b');
    a.finish();
    await settle();
    assert.deepEqual(running(events), ['b']);
    b.finish();
    await y.started;
    await settle();
    assert.deepEqual(running(events), ['y']);
    y.finish();
    await c.started;
    c.finish();
    await Promise.all([x, a, b, y, c].map((job) => job.result));
    assert.deepEqual(
      events.filter((e) => e.startsWith('start')),
      ['start x', 'start a', 'start b', 'start y', 'start c'],
    );
  });

  it('releases the gate when work fails, alone or shared, and passes the error on', async () => {
    const gate = new RunGate();
    const events: string[] = [];
    const x = submit(gate, events, 'x', true);
    const a = submit(gate, events, 'a', false);
    await settle();
    x.fail(new Error('alone broke'));
    await assert.rejects(x.result, /alone broke/);
    await a.started;
    const y = submit(gate, events, 'y', true);
    a.fail(new Error('shared broke'));
    await assert.rejects(a.result, /shared broke/);
    await y.started;
    y.finish();
    assert.equal(await y.result, 'y');
  });

  it('releases the gate when work throws before its first await', async () => {
    const gate = new RunGate();
    await assert.rejects(
      gate.alone(() => {
        throw new Error('sync throw');
      }),
      /sync throw/,
    );
    await assert.rejects(
      gate.shared(() => {
        throw new Error('sync throw');
      }),
      /sync throw/,
    );
    assert.equal(await gate.alone(async () => 'free'), 'free');
  });

  it('random mixes: alone never overlaps, starts follow arrival order, everything ends', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed);
      const gate = new RunGate();
      const events: string[] = [];
      const jobs: Job[] = [];
      const pending = new Set<Job>();
      let arrivals = 0;
      while (arrivals < 30 || pending.size > 0) {
        if (arrivals < 30 && random() < 0.5) {
          const job = submit(gate, events, `j${arrivals++}`, random() < 0.3);
          jobs.push(job);
          pending.add(job);
        } else {
          const now = running(events);
          const candidates = [...pending].filter((job) => now.includes(job.name));
          if (candidates.length > 0) {
            const job = candidates[Math.floor(random() * candidates.length)];
            pending.delete(job);
            if (random() < 0.2) job.fail(new Error('boom'));
            else job.finish();
          }
        }
        await settle();
        const now = running(events);
        const aloneRunning = jobs.filter((job) => job.alone && now.includes(job.name));
        assert.ok(aloneRunning.length === 0 || now.length === 1, `seed ${seed}: alone beside others: ${now.join(', ')}`);
        assert.ok(pending.size === 0 || now.length > 0, `seed ${seed}: work waits but nothing runs`);
      }
      await Promise.allSettled(jobs.map((job) => job.result));
      const starts = events.filter((e) => e.startsWith('start')).map((e) => e.slice(6));
      assert.deepEqual(starts, jobs.map((job) => job.name), `seed ${seed}`);
    }
  });
});
