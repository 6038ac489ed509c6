// A bubblewrap that is slow to start (a loaded machine) is still chosen, or named as slow, never advised to be installed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sandboxOfKind, detectSandbox, sandboxSlowStart, weakerSandboxAdvice } from '../../../src/core/sandbox/detect';
import { onPath } from '../../../src/core/sandbox/probeMemory';
import { remove } from '../../unit/helpers/workspace';

// The probe is cached per process, so each case runs this file again as a child that only probes and prints.
if (process.env.VERIFIED_FIX_PROBE_CHILD === 'auto') {
  // What a request without --sandbox does: only the automatic choice.
  void detectSandbox().then((backend) => process.stdout.write(JSON.stringify({ kind: backend.kind })));
} else if (process.env.VERIFIED_FIX_PROBE_CHILD) {
  void (async () => {
    const backend = await detectSandbox();
    const bwrap = await sandboxOfKind('bwrap');
    process.stdout.write(JSON.stringify({ kind: backend.kind, bwrap: bwrap !== undefined, slow: sandboxSlowStart() ?? null, advice: weakerSandboxAdvice() }));
  })();
} else {
  const made: string[] = [];
  after(() => remove(...made));
  const real = onPath('bwrap');

  /** A folder holding a `bwrap` that waits `delaySeconds`, then is the real one (or, where none is installed, starts and exits 0). */
  function slowBwrap(delaySeconds: number, dir = mkdtempSync(join(tmpdir(), 'vf-slow-bwrap-'))): string {
    made.push(dir);
    const then = real ? `exec ${real} "$@"` : 'exit 0';
    writeFileSync(join(dir, 'bwrap'), `#!/bin/sh\ntrap 'kill $! 2>/dev/null; exit 143' TERM\nsleep ${delaySeconds} &\nwait $!\n${then}\n`);
    chmodSync(join(dir, 'bwrap'), 0o755);
    return dir;
  }

  interface Probed { kind: string; bwrap: boolean; slow: string | null; advice: string }
  function probeIn(binDir: string, cacheDir: string, mode = '1'): Promise<Probed> {
    const env = { ...process.env, VERIFIED_FIX_PROBE_CHILD: mode, PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}`, XDG_CACHE_HOME: cacheDir };
    return new Promise((resolve, reject) => {
      execFile(process.execPath, [__filename], { env }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as Probed)));
    });
  }
  const cache = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vf-probe-cache-'));
    made.push(dir);
    return dir;
  };

  describe(`the sandbox probe with a slow bwrap on PATH (${real ? `wrapping ${real}` : 'bubblewrap is not installed here: the wrapper stands in for one'})`, () => {
    it('gives a bubblewrap request when bwrap takes 8 s to start: the probe retries with a longer limit', async () => {
      const probed = await probeIn(slowBwrap(8), cache());
      assert.equal(probed.kind, 'bwrap', JSON.stringify(probed));
      assert.equal(probed.slow, null);
    });

    it('names the timeout instead of advising to install bubblewrap when it never starts in time; a remembered bubblewrap is kept', async () => {
      const remembered = cache();
      // The same bwrap (the memory is keyed by its path) started at once on this machine before: it is remembered.
      const bin = slowBwrap(0);
      assert.equal((await probeIn(bin, remembered)).kind, 'bwrap');
      slowBwrap(60, bin);
      const [fresh, kept] = await Promise.all([probeIn(bin, cache()), probeIn(bin, remembered)]);
      assert.notEqual(fresh.kind, 'bwrap', JSON.stringify(fresh));
      assert.equal(fresh.bwrap, false, '--sandbox bwrap is not had: the request stops with the reason');
      assert.match(fresh.advice, /^bubblewrap did not start within 20 s; this request runs under \S/);
      assert.doesNotMatch(fresh.advice, /install/);
      assert.equal(kept.kind, 'bwrap', `one slow probe does not demote the backend that worked here: ${JSON.stringify(kept)}`);
    });
  });

  describe('the automatic choice where bubblewrap works', { skip: real ? false : 'SKIPPED: bubblewrap is not installed here' }, () => {
    it('tries bubblewrap alone and never starts the weaker backends\' trials (unshare\'s took about 170 ms of every request)', async () => {
      // An `unshare` on PATH that notes each start, then is the real one.
      const dir = mkdtempSync(join(tmpdir(), 'vf-noted-unshare-'));
      made.push(dir);
      const noted = join(dir, 'started');
      const unshare = onPath('unshare') ?? '/usr/bin/unshare';
      writeFileSync(join(dir, 'unshare'), `#!/bin/sh
echo x >> ${noted}
exec ${unshare} "$@"
`);
      chmodSync(join(dir, 'unshare'), 0o755);
      const auto = await probeIn(dir, cache(), 'auto');
      assert.equal(auto.kind, 'bwrap', JSON.stringify(auto));
      assert.equal(existsSync(noted), false, 'no unshare trial ran');
      // Asked for the list of working backends (--sandbox unshare), they are all tried.
      await probeIn(dir, cache());
      assert.equal(existsSync(noted), true, 'the full probe tried unshare');
    });
  });
}
