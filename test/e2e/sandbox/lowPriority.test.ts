// A run at the lowest priority (the head start beside the baseline), run as every run is: a session of its own, in
// each local sandbox. Its session's nice value must be 19 as well as its processes', since the kernel shares a CPU
// between sessions before it looks at nice values; and several started at once must all get it, since without
// privileges the kernel takes one such change per 100 ms across the machine.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { LOCAL_BACKENDS } from '../../../src/core/contract/choices';
import { atLowestPriority } from '../../../src/core/execution/lowestPriority';
import type { SandboxBackend } from '../../../src/core/sandbox/backend';
import { sandboxOfKind } from '../../../src/core/sandbox/detect';
import { runTestCommand } from '../../../src/core/sandbox/runCommand';
import { makeWorkspace, remove } from '../../unit/helpers/workspace';

const cwd = makeWorkspace({ 'README.md': 'a run\n' });
after(() => remove(cwd));

/** The run's session (its autogroup's nice value) and its own process's nice value. */
const PROBE = 'cat /proc/self/autogroup; nice';
const run = (backend: SandboxBackend, command: string) => runTestCommand({ command, cwd, timeoutMs: 60_000, backend, allowNetwork: false, memoryMB: 0 });

describe('a run at the lowest priority', { skip: existsSync('/proc/self/autogroup') ? false : 'this kernel does not group sessions (no /proc/self/autogroup)' }, async () => {
  const backends = (await Promise.all(LOCAL_BACKENDS.map((kind) => sandboxOfKind(kind)))).filter((b): b is SandboxBackend => b !== undefined);

  for (const backend of backends) {
    it(`under ${backend.kind}: its whole session runs at nice 19, five started at once each`, async () => {
      const runs = await Promise.all(Array.from({ length: 5 }, () => run(backend, atLowestPriority(PROBE))));
      for (const verdict of runs) {
        assert.equal(verdict.status, 'pass', verdict.output);
        assert.match(verdict.stdout, /^\/autogroup-\d+ nice 19\n19\n$/, verdict.stdout);
      }
    });

    it(`under ${backend.kind}: an ordinary run's session stays at the default priority`, async () => {
      const verdict = await run(backend, PROBE);
      assert.equal(verdict.status, 'pass', verdict.output);
      assert.match(verdict.stdout, /^\/autogroup-\d+ nice 0\n0\n$/, verdict.stdout);
    });
  }
});
