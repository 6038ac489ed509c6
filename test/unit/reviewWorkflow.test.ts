// The review bot's workflow (docs/examples/verified-fix-review.yml) linted as YAML and checked against docs/ci.md and scripts/review-bot.sh.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/paths';

const workflow = join(repoRoot, 'docs', 'examples', 'verified-fix-review.yml');

describe('docs/examples/verified-fix-review.yml', () => {
  const text = readFileSync(workflow, 'utf8');

  it('is YAML a GitHub workflow reads: name, on pull_request, jobs with steps', () => {
    assert.ok(!text.includes('\t'), 'no tabs');
    // js-yaml is in node_modules (through eslint); this test adds no dependency for it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const yaml = require('js-yaml') as { load(text: string): unknown };
    const doc = yaml.load(text) as { name?: string; on?: Record<string, unknown>; permissions?: Record<string, string>; jobs?: Record<string, { steps?: { run?: string; uses?: string }[] }> };
    assert.equal(typeof doc.name, 'string');
    assert.ok(doc.on && 'pull_request' in doc.on, 'runs on pull_request');
    assert.equal(doc.permissions?.['pull-requests'], 'write');
    const steps = Object.values(doc.jobs ?? {}).flatMap((j) => j.steps ?? []);
    assert.ok(steps.some((s) => s.uses?.startsWith('actions/setup-node')));
    assert.ok(steps.some((s) => s.uses?.startsWith('actions/upload-artifact')));
    assert.ok(steps.some((s) => /apt-get install[^\n]*bubblewrap/.test(s.run ?? '')), 'installs bubblewrap');
    assert.ok(steps.some((s) => /npm pack/.test(s.run ?? '')) && steps.some((s) => /npm install -g \.\/verified-fix-/.test(s.run ?? '')));
    assert.ok(steps.some((s) => /verified-fix stats/.test(s.run ?? '')), 'pass@k so far from the results file');
  });

  it('runs the same commands as the shell variant: it calls scripts/review-bot.sh', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const doc = (require('js-yaml') as { load(text: string): unknown }).load(text) as { jobs: Record<string, { steps: { run?: string }[] }> };
    const runs = Object.values(doc.jobs).flatMap((j) => j.steps.map((s) => s.run ?? ''));
    assert.ok(runs.some((r) => /bash [^\n]*scripts\/review-bot\.sh/.test(r)));
    assert.ok(!runs.some((r) => /verified-fix fix /.test(r)), 'no second copy of the fix command: the script is the one place');
  });

  it('leaves no token in .git/config, asks for no more than read and review comments, posts only on found and exit 0', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const doc = (require('js-yaml') as { load(text: string): unknown }).load(text) as { permissions: Record<string, string>; jobs: Record<string, { steps: { uses?: string; if?: string; with?: Record<string, unknown> }[] }> };
    const steps = Object.values(doc.jobs).flatMap((j) => j.steps);
    const checkout = steps.find((s) => s.uses?.startsWith('actions/checkout'));
    assert.equal(checkout?.with?.['persist-credentials'], false);
    assert.deepEqual(doc.permissions, { contents: 'read', 'pull-requests': 'write' });
    assert.ok(steps.some((s) => s.if === "steps.bot.outputs.found == 'true' && steps.bot.outputs.exit == '0'"));
  });

  it('is the workflow shown in docs/ci.md', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'ci.md'), 'utf8');
    const block = /```yaml\n([\s\S]*?)```/.exec(doc);
    assert.ok(block, 'docs/ci.md shows the workflow');
    assert.equal(block[1], text);
  });
});
