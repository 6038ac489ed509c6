// Linked folders must name a folder inside the workspace: `..` or an absolute path is refused before anything runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkLinkedFolders } from '../../src/core/request/checkRequest';

describe('checkLinkedFolders', () => {
  it('accepts folders inside the workspace', () => {
    assert.doesNotThrow(() => checkLinkedFolders('/w', ['node_modules', '.venv', 'packages/a/node_modules', 'x/../node_modules']));
  });
  for (const folder of ['..', '../x', '/', '/etc', '.', '', 'node_modules/../..']) {
    it(`refuses ${JSON.stringify(folder)}`, () => assert.throws(() => checkLinkedFolders('/w', [folder]), /not a folder inside the workspace/));
  }
});
