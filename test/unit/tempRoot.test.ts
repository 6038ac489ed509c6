// The temp root: a request folder refuses a root another user owns and closes one others could enter (the sweep of dead processes' folders: test/e2e/isolation/tempRoot.test.ts).
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createRequestFolder } from '../../src/core/isolation/tempRoot';
import { makeTempRoot, remove } from './helpers/workspace';

const root = makeTempRoot();
after(() => remove(root));

describe('createRequestFolder', () => {
  it('refuses a temp root that another user owns', { skip: process.getuid?.() !== 0 && 'needs root to chown' }, async () => {
    const foreign = join(root, 'foreign');
    mkdirSync(foreign, { mode: 0o777 });
    chownSync(foreign, 4242, 4242);
    await assert.rejects(createRequestFolder(foreign), /not a folder owned by you/);
  });

  it('closes a temp root of ours that others could enter', async () => {
    const open = join(root, 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    await createRequestFolder(open);
    assert.equal(statSync(open).mode & 0o777, 0o700);
  });
});
