// The temp root: folders of dead processes are swept at start, live ones and half-made young ones are kept.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createRequestFolder, sweepOrphans } from '../../../src/core/isolation/tempRoot';
import { makeTempRoot, remove } from '../../unit/helpers/workspace';

const root = makeTempRoot();
after(() => remove(root));

function deadPid(): number {
  // A process that has exited: its PID is free (reuse within the test is vanishingly unlikely).
  return Number(spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim());
}

describe('sweepOrphans', () => {
  it('removes folders of dead processes and keeps the living', async () => {
    const mine = await createRequestFolder(root);
    mkdirSync(join(mine, 'c0-copy'));
    const dead = join(root, 'p-dead');
    mkdirSync(join(dead, 'c1-copy', 'deep'), { recursive: true });
    writeFileSync(join(dead, 'owner.json'), JSON.stringify({ pid: deadPid(), startedAt: '' }));
    const halfMadeOld = join(root, 'p-old');
    mkdirSync(halfMadeOld);
    utimesSync(halfMadeOld, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const halfMadeNew = join(root, 'p-new');
    mkdirSync(halfMadeNew);
    const removed = await sweepOrphans(root);
    assert.equal(removed, 2);
    assert.deepEqual(readdirSync(root).sort(), [mine.split('/').pop(), 'p-new'].sort());
  });
});
