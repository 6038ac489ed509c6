// The built CLI's exit codes and messages for bad flags and --help, before anything runs (the flag reader itself: test/unit/optionsParity.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';

describe('the CLI flags', () => {
  const bad: Array<[string, string[], string[]]> = [
    ['samples above the settings\' bound', ['--samples', '500'], ['"verifiedFix.samples" / --samples must be a whole number from 1 to 100, got 500']],
    ['two bad flags, both named', ['--confirm-runs', '50', '--temperature', 'hot'], [
      '"verifiedFix.confirmRuns" / --confirm-runs must be a whole number from 1 to 10, got 50',
      '"verifiedFix.temperature" / --temperature must be a number from 0 to 2, got "hot"',
    ]],
    ['k above samples', ['--samples', '2', '--k', '3'], ['"verifiedFix.k" / --k (3) must not exceed "verifiedFix.samples" / --samples (2)']],
    ['an unknown container engine', ['--container-engine', 'lxc'], ['"verifiedFix.container.engine" / --container-engine must be one of auto, podman, docker, got "lxc"']],
    ['a duration a timer cannot wait', ['--total-timeout', '2147484'], ['"verifiedFix.totalTimeoutSeconds" / --total-timeout must be a number of seconds from 1 to 2147483, got 2147484']],
  ];
  for (const [name, flags, messages] of bad) {
    it(`exits 2 on ${name} before anything runs`, async () => {
      const r = await runCli(['fix', '--workspace', '/nonexistent-vf', '--file', 'a.js', '--lines', '1', ...flags]);
      assert.equal(r.exitCode, 2, r.stderr);
      assert.equal(r.stderr, messages.map((m, i) => `${i === 0 ? 'verified-fix: ' : ''}${m}\n`).join(''));
      assert.equal(r.stdout, '');
    });
  }

  it('prints the help and exits 0', async () => {
    const r = await runCli(['fix', '--help']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /^usage: verified-fix fix --workspace DIR/);
    assert.match(r.stdout, /--container-arg ARG/);
  });
});
