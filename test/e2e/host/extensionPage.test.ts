// The extension's details page (dist/README.md in the .vsix), built by scripts/extension-readme.mjs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
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
