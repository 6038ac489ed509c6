// What a request lists of its workspace (workspaceCopy.ts), on real folders and real git: the files, and the commit
// checked out, which keys what one request keeps for the next (warmStart.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { listWorkspace } from '../../src/core/isolation/workspaceCopy';
import { makeWorkspace, remove } from './helpers/workspace';

const made: string[] = [];
after(() => remove(...made));

function workspace(git: boolean): string {
  const ws = makeWorkspace({ 'src/calc.js': 'module.exports = 1;\n', '.gitignore': 'out/\n', 'out/build.js': 'x' }, { git });
  made.push(ws);
  return ws;
}

describe("the workspace's listing", () => {
  it("names git's files and the commit checked out", async () => {
    const ws = workspace(true);
    const listing = await listWorkspace(ws, ['node_modules'], []);
    assert.equal(listing.source, 'git');
    assert.deepEqual([...listing.files].sort(), ['.gitignore', 'src/calc.js']);
    assert.equal(listing.commit, execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ws, encoding: 'utf8' }).trim());
  });

  it('names no commit in a repository without one, nor outside git', async () => {
    const unborn = workspace(false);
    execFileSync('git', ['init', '-q'], { cwd: unborn });
    const listed = await listWorkspace(unborn, ['node_modules'], []);
    assert.equal(listed.source, 'git');
    assert.equal(listed.commit, undefined);
    const plain = await listWorkspace(workspace(false), ['node_modules'], []);
    assert.equal(plain.source, 'walk');
    assert.equal(plain.commit, undefined);
    assert.deepEqual([...plain.files].sort(), ['.gitignore', 'src/calc.js']);
  });
});
