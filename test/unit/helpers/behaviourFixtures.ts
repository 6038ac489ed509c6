// The page-count project the behaviour-check suites and their attack suites share (JavaScript and Python): one
// definition, so an attack is tried on exactly the project and fixes its suite reports on.
export { candidatesFile } from './candidatesFile';

/** A package.json whose test script is `node --test`. */
export const nodeTestPackage = (name: string, type?: string) => JSON.stringify({ name, ...(type ? { type } : {}), scripts: { test: 'node --test' } });

// Line 2 rounds down where a partial page needs a page of its own.
export const JS_PAGES = 'function pageCount(items, perPage) {\n  return Math.floor(items / perPage);\n}\nmodule.exports = { pageCount };\n';
export const JS_PAGES_TESTS = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { pageCount } = require('../src/pages.js');",
  "test('a partial page counts', () => assert.strictEqual(pageCount(11, 5), 3));",
  "test('exact pages', () => assert.strictEqual(pageCount(10, 5), 2));",
].join('\n');
/** Two fixes of line 2 that pass the tests and differ elsewhere (e.g. on negative inputs). */
export const JS_CEIL = '  return Math.ceil(items / perPage);';
export const JS_ROUND_UP = '  return Math.floor((items + perPage - 1) / perPage);';
/** The project's files: src/pages.js, its tests and a package.json. */
export const jsPagesProject = (): Record<string, string> => ({ 'src/pages.js': JS_PAGES, 'test/pages.test.js': `${JS_PAGES_TESTS}\n`, 'package.json': nodeTestPackage('pages') });

// The same bug in Python (pytest finds src/ through pytest.ini).
export const PY_PAGES = 'def page_count(items, per_page):\n    return items // per_page\n';
export const PY_PAGES_TESTS = [
  'from pages import page_count',
  '',
  'def test_partial_page():',
  '    assert page_count(11, 5) == 3',
  '',
  'def test_exact_pages():',
  '    assert page_count(10, 5) == 2',
  '',
].join('\n');
export const PY_NEGATED = '    return -(-items // per_page)';
export const PY_ROUND_UP = '    return (items + per_page - 1) // per_page';
export const PYTEST = 'python3 -m pytest -q -p no:cacheprovider';
/** The project's files: src/pages.py, its tests and a pytest.ini. */
export const pyPagesProject = (): Record<string, string> => ({ 'src/pages.py': PY_PAGES, 'tests/test_pages.py': PY_PAGES_TESTS, 'pytest.ini': '[pytest]\npythonpath = src\n' });
