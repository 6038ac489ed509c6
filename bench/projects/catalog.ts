// The real-projects bench's projects: published releases that ship their own tests, pinned by version and integrity,
// the test runner each needs, and three seeded one-token bugs in real functions of each (not from any bug dataset).

/** One seeded bug: `from` occurs exactly once in `file` and becomes `to`; the request selects that line. */
export interface SeededBug {
  readonly file: string;
  readonly from: string;
  readonly to: string;
  /** What the bug breaks, for the table. */
  readonly what: string;
}

export interface BenchProject {
  /** The name `npm run bench:projects -- NAME` selects. */
  readonly name: string;
  readonly runner: string;
  /** npm: a registry tarball (`npm pack`); pip: a wheel from pip's configured index (`pip download`). */
  readonly source: { readonly kind: 'npm'; readonly spec: string; readonly integrity: string } | { readonly kind: 'pip'; readonly spec: string; readonly sha256: string };
  /** The test script as the project's published one runs its tests (lint, coverage and type steps left out: see `note`). */
  readonly test: string;
  /** Exact versions installed into the project's own folder in the cache (never into this repository). */
  readonly devDependencies?: Readonly<Record<string, string>>;
  /** Extra package.json fields (jest's test environment, for example). */
  readonly packageFields?: Readonly<Record<string, unknown>>;
  /** Files removed after unpacking (a babel 6 config whose preset no longer installs; Node 20 runs the syntax natively). */
  readonly remove?: readonly string[];
  readonly note: string;
  readonly bugs: readonly [SeededBug, SeededBug, SeededBug];
}

const FLAT_BUGS: BenchProject['bugs'] = [
  { file: 'index.js', from: 'currentDepth < maxDepth', to: 'currentDepth <= maxDepth', what: 'maxDepth one level too deep' },
  { file: 'index.js', from: "key.indexOf('.') !== -1", to: "key.indexOf('.') === -1", what: 'numeric keys of unflatten' },
  { file: 'index.js', from: "Object.prototype.toString.call(target) !== '[object Object]'", to: "Object.prototype.toString.call(target) === '[object Object]'", what: 'unflatten returns its input' },
];

const GENSYNC_BUGS: BenchProject['bugs'] = [
  { file: 'index.js', from: 'if (items.length === 0) {\n          Promise', to: 'if (items.length !== 0) {\n          Promise', what: 'all() of an empty list' },
  { file: 'index.js', from: 'if (count === results.length) resolve(results);', to: 'if (count !== results.length) resolve(results);', what: 'all() resolves too early' },
  { file: 'index.js', from: 'if (typeof arity !== "number") {', to: 'if (typeof arity === "number") {', what: 'the arity option' },
];

/** gensync's jest-style suite run by vitest `version` with --globals (no published package ships vitest tests). */
function gensyncOnVitest(name: string, version: string, note: string): BenchProject {
  return {
    name,
    runner: `vitest ${version.split('.')[0]}`,
    source: { kind: 'npm', spec: 'gensync@1.0.0-beta.2', integrity: 'sha512-3hN7NaskYvMDLQY55gnW3NQ+mesEAepTqlg+VEbj7zzqEMBVNhzcGYYeqFo/TlYz6eQiFcp1HcsCZO+nGgS8zg==' },
    test: 'vitest run --globals',
    devDependencies: { vitest: version, 'util.promisify': '1.1.2' },
    remove: ['test/.babelrc'],
    note,
    bugs: GENSYNC_BUGS,
  };
}

export const PROJECTS: readonly BenchProject[] = [
  {
    name: 'flat',
    runner: 'mocha 8',
    source: { kind: 'npm', spec: 'flat@5.0.2', integrity: 'sha512-b6suED+5/3rTpUBdG1gupIl8MPFCAMA0QXwmljLhvCUKcUvdE4gWky9zpuGCcXHOsz4J9wPGNWq6OKpmIzz3hQ==' },
    test: 'mocha -u tdd --reporter spec',
    devDependencies: { mocha: '8.1.3' },
    note: 'published script `mocha -u tdd --reporter spec && standard …`: the lint step left out; mocha ~8.1.1 as in its devDependencies',
    bugs: FLAT_BUGS,
  },
  {
    name: 'json-schema-traverse',
    runner: 'mocha 10',
    source: { kind: 'npm', spec: 'json-schema-traverse@1.0.0', integrity: 'sha512-NM8/P9n3XjXhIZn1lLhkFaACTOURQXjWhV4BA/RnOv8xvgqtqpAX9IO4mRQxSx1Rlo4tqzeqb0sOlruaOy3dug==' },
    test: 'mocha spec -R spec',
    devDependencies: { mocha: '10.8.2' },
    note: 'published `test-spec` script (`mocha spec -R spec`) without eslint and nyc; run by mocha 10 (its devDependencies say ^8)',
    bugs: [
      { file: 'index.js', from: "if (schema && typeof schema == 'object' && !Array.isArray(schema)) {", to: "if (schema && typeof schema != 'object' && !Array.isArray(schema)) {", what: 'nothing is traversed' },
      { file: 'index.js', from: '(opts.allKeys && !(key in traverse.skipKeywords))', to: '(opts.allKeys || !(key in traverse.skipKeywords))', what: 'allKeys always on' },
      { file: 'index.js', from: "var pre = (typeof cb == 'function')", to: "var pre = (typeof cb != 'function')", what: 'a callback function is ignored' },
    ],
  },
  {
    name: 'merge-json-schemas',
    runner: 'node --test',
    source: { kind: 'npm', spec: '@fastify/merge-json-schemas@0.2.2', integrity: 'sha512-d/gx9sRbUCVgGRGzma46wLcwiY8noTqO2Nmjg/vbTARxHRE5bdh5PIL8s97Lt1X7ScRWRW52eVYxwIoPwIdVUA==' },
    test: 'node --test',
    note: 'published `test:unit` script `c8 --100 node --test` without the coverage gate; 40 test files',
    bugs: [
      { file: 'lib/resolvers.js', from: 'for (let i = 1; i < arrays.length; i++) {', to: 'for (let i = 1; i <= arrays.length; i++) {', what: 'intersection reads past the end' },
      { file: 'lib/resolvers.js', from: 'if (intersection.length === 1) {', to: 'if (intersection.length !== 1) {', what: 'one common type kept as an array' },
      { file: 'lib/resolvers.js', from: 'if (!union.includes(value)) {', to: 'if (union.includes(value)) {', what: 'union drops everything' },
    ],
  },
  {
    name: 'deepmerge',
    runner: 'tape',
    source: { kind: 'npm', spec: '@fastify/deepmerge@3.2.4', integrity: 'sha512-kc8GQq5gX9RRhw0rov3DMrN8wS8yRlxJRdDzsYwwdBV/wazuVgc/1K7CKL90tlvu3RlHan6Y0R0aE3nJtBz2eQ==' },
    test: 'tape test/*.js',
    devDependencies: { tape: '5.9.0' },
    note: 'published `test:unit` script `c8 … tape test/*.js` without the coverage gate',
    bugs: [
      { file: 'index.js', from: 'result[i + tl] = clone(source[i])', to: 'result[i - tl] = clone(source[i])', what: 'concatenated arrays overwrite' },
      { file: 'index.js', from: '(sourceKeys.indexOf(key) === -1) &&', to: '(sourceKeys.indexOf(key) !== -1) &&', what: 'target-only keys dropped' },
      { file: 'index.js', from: "return typeof value !== 'object' || value === null", to: "return typeof value !== 'object' || value !== null", what: 'isPrimitive of objects' },
    ],
  },
  {
    name: 'gensync-jest',
    runner: 'jest 26',
    source: { kind: 'npm', spec: 'gensync@1.0.0-beta.2', integrity: 'sha512-3hN7NaskYvMDLQY55gnW3NQ+mesEAepTqlg+VEbj7zzqEMBVNhzcGYYeqFo/TlYz6eQiFcp1HcsCZO+nGgS8zg==' },
    test: 'jest',
    devDependencies: { jest: '26.6.3', 'util.promisify': '1.1.2' },
    packageFields: { jest: { testEnvironment: 'node' } },
    remove: ['test/.babelrc'],
    note: 'published script `jest` (jest ^22 and a babel 6 preset in its devDependencies): run by jest 26 (jest 27+ refuses its async describe) without the babel config',
    bugs: GENSYNC_BUGS,
  },
  {
    name: 'lunr',
    runner: 'mocha 3',
    source: { kind: 'npm', spec: 'lunr@2.3.9', integrity: 'sha512-zTU3DaZaF3Rt9rhN3uBMGQD3dD2/vFQqnvZCDv4dl5iOzq2IZQqTxu90r4E5J+nP70J3ilqVCrbho2eWaeW8Ow==' },
    test: 'mocha test/*.js -u tdd -r test/test_helper.js -R dot -C',
    devDependencies: { mocha: '3.3.0', chai: '3.5.0' },
    note: 'published script `make test`, whose Makefile target runs this mocha line on the shipped, prebuilt lunr.js; mocha 3.3 and chai 3.5 as in its devDependencies; 487 tests',
    bugs: [
      { file: 'lunr.js', from: 'clause.term.charAt(0) != lunr.Query.wildcard', to: 'clause.term.charAt(0) == lunr.Query.wildcard', what: 'leading wildcard not added' },
      { file: 'lunr.js', from: 'if (char == "-" && lexer.width() === 1) {', to: 'if (char == "-" && lexer.width() !== 1) {', what: 'a lone "-" not lexed' },
      { file: 'lunr.js', from: 'return (pivotPoint + 1) * 2', to: 'return (pivotPoint - 1) * 2', what: 'vector insert position' },
    ],
  },
  {
    name: 'chrono',
    runner: 'jest 26',
    source: { kind: 'npm', spec: 'chrono-node@1.4.9', integrity: 'sha512-mz0jOeqJLDKlbiYUjTbncNdfqm9odeuKVlxRvY15ZkFcRsUsSVJ6Rsf7V7ME6kkcfxbcG+CqnIafqqx1nu9C7A==' },
    test: 'jest',
    devDependencies: { jest: '26.6.3', '@babel/core': '7.26.9', '@babel/preset-env': '7.26.9' },
    note: 'published script `jest --coverage` (jest ^25): run by jest 26 without coverage; its shipped babel.config.js transpiles the ES-module test helpers; 61 files, 223 tests (many dates in each), about 10 s',
    bugs: [
      { file: 'src/refiners/ForwardDateRefiner.js', from: "if (refMoment.day() > result.start.get('weekday')) {", to: "if (refMoment.day() < result.start.get('weekday')) {", what: 'forwardDate picks the wrong week' },
      { file: 'src/refiners/en/ENMergeDateRangeRefiner.js', from: 'if (fromResult.start.date().getTime() > toResult.start.date().getTime()) {', to: 'if (fromResult.start.date().getTime() < toResult.start.date().getTime()) {', what: 'date ranges swapped' },
      { file: 'src/utils/EN.js', from: "} else if(num === 'a' || num === 'an'){", to: "} else if(num !== 'a' || num === 'an'){", what: '"a" and "an" no longer read as 1' },
    ],
  },
  gensyncOnVitest('gensync-vitest', '3.2.4', 'the same jest-style suite run by vitest with --globals: no published package found that ships its vitest tests'),
  gensyncOnVitest('gensync-vitest1', '1.6.1', 'the vitest 3 stand-in on vitest 1.6 (vite 5), the last release before 2.0'),
  {
    name: 'toolz',
    runner: 'pytest',
    source: { kind: 'pip', spec: 'toolz==1.1.0', sha256: '15ccc861ac51c53696de0a5d6d4607f99c210739caf987b5d2054f3efed429d8' },
    test: 'python3 -m pytest toolz/tests',
    note: "the wheel ships toolz/tests; pytest from the machine's Python",
    bugs: [
      { file: 'toolz/itertoolz.py', from: 'return len(seq) == len(set(seq))', to: 'return len(seq) != len(set(seq))', what: 'isdistinct inverted' },
      { file: 'toolz/itertoolz.py', from: 'if len(seqs) == 0:', to: 'if len(seqs) != 0:', what: 'merge_sorted of anything' },
      { file: 'toolz/itertoolz.py', from: 'if items.count(items[0]) != N:', to: 'if items.count(items[0]) == N:', what: 'diff reports equal items' },
    ],
  },
  {
    name: 'pyflakes',
    runner: 'pytest',
    source: { kind: 'pip', spec: 'pyflakes==4.0.0', sha256: '0f7b7a78e8fcffd78b205200f045a70911f4179be1b42eac82c3323e0bf5c8aa' },
    test: 'python3 -m pytest pyflakes/test',
    note: "the wheel ships pyflakes/test (unittest-style, no dependencies); pytest from the machine's Python; 791 tests (34 skipped), about 5 s",
    bugs: [
      { file: 'pyflakes/checker.py', from: 'if len(set(args)) < len(args):', to: 'if len(set(args)) > len(args):', what: 'duplicate arguments not reported' },
      { file: 'pyflakes/checker.py', from: 'if any(count == 1 for value, count in values.items()):', to: 'if any(count != 1 for value, count in values.items()):', what: 'repeated dict keys misreported' },
      { file: 'pyflakes/checker.py', from: 'if handler.type is None and i < len(node.handlers) - 1:', to: 'if handler.type is None and i < len(node.handlers) + 1:', what: 'a bare except flagged when last' },
    ],
  },
];
