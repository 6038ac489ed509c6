// The extension's details page (dist/README.md in the .vsix) and the readers of test output the Quick Fix relies on.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { stripAnsi } from '../../../src/core/base/ansi';
import { outputLocations } from '../../../src/core/testResults/stackLocations';
import { repoRoot } from '../../unit/helpers/paths';

describe('the extension details page', () => {
  const script = join(repoRoot, 'scripts', 'extension-readme.mjs');
  const page = (): string => {
    execFileSync(process.execPath, [script], { cwd: repoRoot });
    return readFileSync(join(repoRoot, 'dist', 'README.md'), 'utf8');
  };

  it('is about using the extension: requirements and privacy, no contributor quick start', () => {
    const text = page();
    assert.match(text, /^## Requirements$/m);
    assert.match(text, /^## Privacy$/m);
    assert.match(text, /bubblewrap/);
    assert.doesNotMatch(text, /npm ci|install-vscode\.sh|CONTRIBUTING/, 'contributor material stays in the repository README');
    assert.doesNotMatch(text, /source-only/);
    // The repository README keeps its two-command quick start.
    assert.match(readFileSync(join(repoRoot, 'README.md'), 'utf8'), /npm ci && npm run demo[\s\S]*bash \.ci\/install-vscode\.sh && npm test/);
  });

  it('carries its screenshots as data: URLs, which the details view loads, and links only to packaged files', () => {
    const text = page();
    const images = [...text.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(images.length >= 1);
    for (const src of images) assert.match(src, /^(data:image\/png;base64,|https:)/, `image ${src.slice(0, 60)}`);
    const ignore = readFileSync(join(repoRoot, '.vscodeignore'), 'utf8');
    const links = [...text.matchAll(/(?<!!)\[[^\]]*\]\(([^)#\s]+)\)/g)].map((m) => m[1]).filter((href) => !/^[a-z]+:/.test(href));
    for (const href of links) {
      assert.ok(existsSync(join(repoRoot, href)), `${href} exists`);
      const folder = href.includes('/') ? href.slice(0, href.lastIndexOf('/')) : '';
      const pattern = `!${folder ? folder + '/' : ''}*${href.slice(href.lastIndexOf('.'))}`;
      assert.ok(ignore.includes(pattern) || ignore.includes(`!${href}`), `${href} is packaged (.vscodeignore allows ${pattern})`);
    }
  });

  it('fails loudly on a source-only block left open', async () => {
    const { extensionReadme } = (await import(script)) as { extensionReadme: (readme: string, readImage: (path: string) => Buffer) => string };
    assert.throws(() => extensionReadme('# A\n<!-- source-only -->\nnpm ci\n', () => Buffer.alloc(0)), /not closed/);
    assert.equal(extensionReadme('# A\n<!-- source-only -->\nnpm ci\n<!-- /source-only -->\n\n## B\n', () => Buffer.alloc(0)), '# A\n## B\n');
  });
});

describe('file-and-line references in test output', () => {
  it('reads stack frames, tracebacks and compiler errors, without runner internals or repeats', () => {
    const output = [
      '\u001b[31m✖ initials\u001b[39m',
      "TypeError: Cannot read properties of undefined (reading '0')",
      '    at initials (/work/ws/words.js:7:58)',
      '    at TestContext.<anonymous> (/work/ws/words.test.js:7:16)',
      '    at Test.runInAsyncScope (node:async_hooks:206:9)',
      '    at async Promise.all (index 0)',
      '    at file:///work/ws/src/my%20file.mjs:3:1',
      '  File "/work/ws/calc.py", line 12, in add',
      'src/a.ts(3,9): error TS2322',
      '    at initials (/work/ws/words.js:7:58)',
    ].join('\n');
    // In the order of the text, whatever form each reference takes.
    assert.deepEqual(outputLocations(stripAnsi(output)), [
      { path: '/work/ws/words.js', line: 7 },
      { path: '/work/ws/words.test.js', line: 7 },
      { path: '/work/ws/src/my file.mjs', line: 3 },
      { path: '/work/ws/calc.py', line: 12 },
      { path: 'src/a.ts', line: 3 },
    ]);
  });

  it('keeps a file URL with a malformed escape as written', () => {
    assert.deepEqual(outputLocations('    at file:///work/ws/100%zz.js:3:1'), [{ path: '/work/ws/100%zz.js', line: 3 }]);
  });

  it('strips colours, hyperlinks and shell-integration marks', () => {
    assert.equal(stripAnsi('\u001b]633;C\u0007\u001b[1;31mfail\u001b[0m \u001b]8;;file:///x\u001b\\x\u001b]8;;\u001b\\'), 'fail x');
    // Colon-separated colours and private-mode parameters are CSI sequences too.
    assert.equal(stripAnsi('\u001b[38:5:196mred\u001b[>4;2m\u001b[0m'), 'red');
  });
});
