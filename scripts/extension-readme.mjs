// Writes dist/README.md, the extension's details page: README.md without its source-only parts (the contributor's
// quick start and development notes), so the page a user reads before installing is about using the extension, and
// with its screenshots inlined: VS Code's details view loads images only from https: or data: URLs, and without a
// published repository there is no https: URL to point at.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_ONLY = /<!-- source-only[^>]*-->[\s\S]*?<!-- \/source-only -->\n*/g;
const LOCAL_PNG = /(!\[[^\]]*\]\()([^)\s:]+\.png)\)/g;

/**
 * README.md's text without the blocks between `<!-- source-only … -->` and `<!-- /source-only -->`, and with each
 * local PNG image (a path relative to the repository) as a data: URL read through `readImage`.
 */
export function extensionReadme(readme, readImage) {
  const page = readme.replace(SOURCE_ONLY, '');
  if (page.includes('source-only')) throw new Error('README.md: a source-only block is not closed');
  return page.replace(LOCAL_PNG, (_, alt, path) => `${alt}data:image/png;base64,${readImage(path).toString('base64')})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = join(root, 'dist', 'README.md');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, extensionReadme(readFileSync(join(root, 'README.md'), 'utf8'), (path) => readFileSync(join(root, path))));
}
