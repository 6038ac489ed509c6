// Runs that hold every slot: which commands start more test files at once, and when the user's choice or an old node
// keeps the runner's own. The node probe runs real programs: this node, and a stand-in for an old one.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { wideRun } from '../../src/core/testCommand/wideRuns';
import type { WideRunOptions } from '../../src/core/testCommand/wideRuns';
import { nodeAdapter } from '../../src/core/testResults/node';
import { mochaAdapter } from '../../src/core/testResults/mocha';
import { makeWorkspace, remove } from './helpers/workspace';

const workspace = makeWorkspace({ 'package.json': '{}' });
const tools = makeWorkspace({});
after(() => remove(workspace, tools));
const thisNode = dirname(process.execPath);
const options = (base: string, over: Partial<WideRunOptions> = {}): WideRunOptions => ({
  workspace, runner: { adapter: nodeAdapter, base }, env: { PATH: thisNode }, usesHostTools: true, slots: 2, runnerDefault: 1, ...over,
});

describe('node --test: the number of test files at once', () => {
  it('goes right after --test, before the files', () => {
    assert.equal(nodeAdapter.concurrent?.('node --test test/', 4), 'node --test --test-concurrency=4 test/');
    assert.equal(nodeAdapter.concurrent?.('node --import tsx --test', 2), 'node --import tsx --test --test-concurrency=2');
  });

  it("keeps the user's own number, and leaves files that share one process alone", () => {
    assert.equal(nodeAdapter.concurrent?.('node --test --test-concurrency=1 test/', 2), undefined);
    assert.equal(nodeAdapter.concurrent?.('node --test --test-concurrency 1', 2), undefined);
    assert.equal(nodeAdapter.concurrent?.('node --test --experimental-test-isolation=none', 2), undefined);
    assert.equal(nodeAdapter.concurrent?.('node test/run.js', 2), undefined);
  });
});

describe('wide runs', () => {
  it("widen the full command when a run holding every slot can use more than the runner's own choice", () => {
    const { wide, note } = wideRun(options('node --test test/'));
    assert.equal(wide?.width, 2);
    assert.match(wide?.command.command('/r/report.jsonl') ?? '', /^node --test '--test-reporter=.* --test-reporter-destination=\/r\/report\.jsonl .*--test-concurrency=2 test\/$/);
    assert.match(note ?? '', /starts 2 test files at once \(--test-concurrency=2; node's own choice here is 1/);
  });

  it("say nothing when the runner's own choice already uses the slots, or the runner cannot be told", () => {
    assert.deepEqual(wideRun(options('node --test', { slots: 4, runnerDefault: 7 })), {});
    assert.deepEqual(wideRun(options('node --test', { slots: 1 })), {});
    assert.deepEqual(wideRun(options('mocha', { runner: { adapter: mochaAdapter, base: 'mocha' } })), {});
    assert.deepEqual(wideRun(options('node --test', { runner: { unsupported: 'no reporter' } })), {});
  });

  it("keep the user's number, from the command or NODE_OPTIONS", () => {
    assert.match(wideRun(options('node --test --test-concurrency=1')).note ?? '', /as the command says/);
    const fromEnv = wideRun(options('node --test', { env: { PATH: thisNode, NODE_OPTIONS: '--test-concurrency=1' } }));
    assert.equal(fromEnv.wide, undefined);
    assert.match(fromEnv.note ?? '', /as NODE_OPTIONS says/);
  });

  it('ask the real node the runs start, and keep its choice when it does not take the flag', () => {
    const old = join(tools, 'old');
    mkdirSync(old);
    // A node from before 20.10: it refuses the flag as unknown, as those releases do ("bad option", exit 9).
    writeFileSync(join(old, 'node'), '#!/bin/sh\ncase "$1" in --test-concurrency*) echo "node: bad option: $1" >&2; exit 9;; esac\necho v18.0.0\n');
    chmodSync(join(old, 'node'), 0o755);
    const refused = wideRun(options('node --test', { env: { PATH: old } }));
    assert.equal(refused.wide, undefined);
    assert.match(refused.note ?? '', /does not take --test-concurrency: Node 20\.10 or later does/);
    assert.ok(wideRun(options('node --test')).wide, 'this node takes it');
    assert.ok(wideRun(options(`${join(thisNode, 'node')} --test`, { env: {} })).wide, 'an absolute node is asked itself');
  });

  it("never start the project's own node outside the sandbox to ask it, and not in a container", () => {
    const bin = join(workspace, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'node'), '#!/bin/sh\ntouch "$(dirname "$0")/ran"\n');
    chmodSync(join(bin, 'node'), 0o755);
    let asked = 0;
    const takesConcurrency = () => (asked++, true);
    assert.equal(wideRun(options('node --test', { env: { PATH: bin }, takesConcurrency })).wide, undefined);
    assert.equal(wideRun(options('node --test', { env: { PATH: 'bin' }, takesConcurrency })).wide, undefined);
    assert.equal(wideRun(options('tsx --test', { takesConcurrency })).wide, undefined);
    assert.equal(asked, 0);
    assert.deepEqual(wideRun(options('node --test', { usesHostTools: false, takesConcurrency })), {});
  });
});
