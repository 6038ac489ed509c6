// The process-group backend as root: refused without the opt-in, whichever way it was chosen (asked, or the fallback).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SandboxBackend } from '../../src/core/sandbox/backend';
import { bwrapBackend } from '../../src/core/sandbox/bwrap';
import { processGroupBackend } from '../../src/core/sandbox/processGroup';
import { checkProcessGroup } from '../../src/core/sandbox/processGroupRisk';

const tools = { prlimit: false, bash: true };
const processGroup: SandboxBackend = processGroupBackend(tools);

function logger(): { warnings: string[]; info: () => void; warn: (m: string) => void; error: () => void; trace: () => void } {
  const warnings: string[] = [];
  return { warnings, info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined, trace: () => undefined };
}

describe('process group as root', () => {
  it('refuses root without the opt-in, naming the flag and the setting', () => {
    assert.throws(() => checkProcessGroup(processGroup, false, logger(), 0), /refusing to run tests as root without a sandbox.*--allow-process-group-as-root.*verifiedFix\.sandbox\.allowProcessGroupAsRoot/s);
  });

  it('leaves other backends alone, as root too', () => {
    const log = logger();
    checkProcessGroup(bwrapBackend(tools, true), false, log, 0);
    assert.deepEqual(log.warnings, []);
  });

  it('says what the user gives up once per process, under any uid', () => {
    const log = logger();
    checkProcessGroup(processGroup, true, log, 0);
    checkProcessGroup(processGroup, false, log, 1000);
    assert.equal(log.warnings.length, 1, log.warnings.join('\n'));
    assert.match(log.warnings[0], /NOT sandboxed.*every file you can.*network.*running as ROOT, as you allowed/s);
  });
});
