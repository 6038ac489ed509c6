// The repair corpus is sound: each bug fails its visible tests, and its fix passes them and the hidden ones.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Verdict } from '../../../src/core/contract/fixRequest';
import type { SandboxBackend } from '../../../src/core/sandbox/backend';
import { detectSandbox } from '../../../src/core/sandbox/detect';
import type { RepairTask } from '../../../bench/repair/corpus';
import { copyTask, fixedText, HIDDEN_DIR, hiddenCommand, readTask, runInCopy, visibleCommand, writeTaskFile } from '../../../bench/repair/corpus';
import { repoRoot } from '../../unit/helpers/paths';

const corpus = join(repoRoot, 'bench', 'repair', 'corpus');
const folders = readdirSync(corpus).sort();
const tasks: RepairTask[] = folders.flatMap((name) => readTask(join(corpus, name)).task ?? []);

/** The end of a run's output, enough to see which assertion failed. */
const tail = (verdict: Verdict) => `${verdict.status}${verdict.reason ? ` (${verdict.reason})` : ''}\n${verdict.output.slice(-1500)}`;

describe('the repair corpus', () => {
  it('has well-formed tasks whose bug lies inside its function', () => {
    for (const name of folders) {
      const { task, problems } = readTask(join(corpus, name));
      assert.deepEqual(problems, [], name);
      assert.ok(task);
      const lines = readFileSync(join(task.dir, task.file), 'utf8').split('\n');
      assert.ok(task.functionLines[1] <= lines.length, `${name}: functionLines past the end of ${task.file}`);
      const buggy = lines.slice(task.bugLines[0] - 1, task.bugLines[1]).join('\n');
      assert.notEqual(buggy, task.fixed, `${name}: fixed is the buggy text`);
    }
  });

  it('has at least 40 tasks, half of them multi-token, in both languages', () => {
    assert.ok(tasks.length >= 40, `${tasks.length} tasks`);
    assert.ok(2 * tasks.filter((t) => t.multiToken).length >= tasks.length, 'fewer than half are multi-token');
    for (const language of ['javascript', 'python'] as const) assert.ok(tasks.some((t) => t.language === language), `no ${language} task`);
  });

  // Two tasks at a time: each run starts node or pytest, and CI machines have few cores.
  describe('each task', { concurrency: 2 }, () => {
    let scratch = '';
    let backend: SandboxBackend;
    before(async () => {
      scratch = mkdtempSync(join(tmpdir(), 'vf-corpus-'));
      backend = await detectSandbox();
    });
    after(() => rmSync(scratch, { recursive: true, force: true }));

    for (const task of tasks) {
      it(`${task.id}: visible tests fail on the bug; visible and hidden tests pass on the fix`, async () => {
        const copy = copyTask(task, scratch, { hidden: false });
        assert.ok(!existsSync(join(copy, HIDDEN_DIR)), 'the engine-visible copy holds the hidden tests');
        const buggy = readFileSync(join(copy, task.file), 'utf8');
        const onBug = await runInCopy(copy, visibleCommand(task), backend);
        assert.equal(onBug.status, 'fail', `the visible tests do not fail on the bug: ${tail(onBug)}`);
        const withHidden = copyTask(task, scratch, { hidden: true });
        writeTaskFile(withHidden, task, fixedText(task, buggy));
        const fixed = await runInCopy(withHidden, hiddenCommand(task, { withVisible: true }), backend);
        assert.equal(fixed.status, 'pass', `the visible or hidden tests fail on the fix: ${tail(fixed)}`);
      });
    }
  });
});
