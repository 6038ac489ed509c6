// Results files: the format, stable task ids and the lock appends wait for (the panel's Export against `fix --results`: test/e2e/statistics/resultsFile.test.ts).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as lockfile from 'proper-lockfile';
import { appendResults, formatResults, parseResults, recordsOf, stableTaskId } from '../../src/core/statistics/resultsFile';
import { makeWorkspace, remove } from './helpers/workspace';

const dir = makeWorkspace({});
after(() => remove(dir));

describe('results files', () => {
  it('reads a non-pass verdict back as written, and old files by their result text', () => {
    const text = formatResults([{ taskId: 'a', samples: recordsOf(['error', 'timeout', 'fail', 'pass']) }]) +
      '{"task_id":"b","passed":false,"result":"timed out"}\n{"task_id":"b","passed":false,"result":"failed: x"}\n';
    assert.deepEqual(parseResults(text, 'x'), [{ taskId: 'a', outcomes: ['error', 'timeout', 'fail', 'pass'], baselinePassed: false }, { taskId: 'b', outcomes: ['timeout', 'fail'], baselinePassed: false }]);
  });

  it('names a task by file, lines and the selected text, and nothing else', () => {
    const id = stableTaskId('src\\a.js', [3, 4], 'if (i < n)');
    assert.match(id, /^src\/a\.js:3-4#[0-9a-f]{12}$/);
    assert.equal(stableTaskId('src/a.js', [3, 4], 'if (i < n)'), id);
    assert.notEqual(stableTaskId('src/a.js', [3, 4], 'if (i <= n)'), id);
  });

  it('waits for the lock another writer holds, then appends after its lines', async () => {
    const path = join(dir, 'locked.jsonl');
    writeFileSync(path, '');
    const release = await lockfile.lock(path, { realpath: false });
    const waiting = appendResults(path, 'second\n');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(readFileSync(path, 'utf8'), '', 'nothing is written while another process holds the lock');
    writeFileSync(path, 'first\n', { flag: 'a' });
    await release();
    await waiting;
    assert.equal(readFileSync(path, 'utf8'), 'first\nsecond\n');
  });

  it('takes over a lock left by a killed process, and says why when the folder is missing', async () => {
    const path = join(dir, 'stale.jsonl');
    mkdirSync(`${path}.lock`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    await appendResults(path, 'line\n');
    assert.equal(readFileSync(path, 'utf8'), 'line\n');
    await assert.rejects(appendResults(join(dir, 'no', 'such', 'r.jsonl'), 'x\n'), /cannot append results to .*r\.jsonl: its folder does not exist/);
  });
});
