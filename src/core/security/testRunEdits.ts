// Flags candidate edits that make tests pass by changing how they run (exiting early, skipping, patching asserts).

/** One edit in a candidate's replacement text that changes how the tests run rather than what the code does. */
export interface TestRunEdit {
  /** Stable id of the table row that matched: `family/category/what`, e.g. `js/exit/process.exit`. */
  readonly rule: string;
  /** Short human phrase, e.g. 'process.exit'. */
  readonly what: string;
  /** 1-based line within the replacement. */
  readonly line: number;
}

type Category = 'exit' | 'framework' | 'assertion' | 'loader' | 'env' | 'hook' | 'detect';
/**
 * A table row. Patterns are matched with comments blanked out; string contents are kept, because module names
 * (`'node:test'`) and `eval('process.exit()')` live in strings. `bare` rows name plain words (`exit`, `abort`) that
 * prose in a string would trip, so they are matched with string contents blanked too. `method` rows name a method a
 * fix to a class may rightly add, so they count only where the selected text defines no class.
 */
type Row = readonly [what: string, category: Category, pattern: RegExp, mode?: 'bare' | 'method'];

/** How comments and strings look; backtick and triple-quoted strings may span lines, the others end at a newline. */
interface Syntax { readonly comments: readonly string[]; readonly block: boolean; readonly quotes: string; readonly triple: boolean }

const C_LIKE: Syntax = { comments: ['//'], block: true, quotes: `"'`, triple: false };
const HASH: Syntax = { comments: ['#'], block: false, quotes: `"'`, triple: false };

// Lookbehinds stand in for word boundaries that also exclude member access, so `myprocess.exit`, `ctx.exit(`
// and `on_exit_hook` are not flagged; `=(?!=)` keeps comparisons (`===`, `==`) out of the assignment rows.
const JS: readonly Row[] = [
  ['process.exit', 'exit', /(?<![\w$])process\s*(?:\.\s*|\[\s*['"`])exit\b/],
  ['process.reallyExit', 'exit', /(?<![\w$])process\s*(?:\.\s*|\[\s*['"`])reallyExit\b/],
  ['process.abort', 'exit', /(?<![\w$])process\s*(?:\.\s*|\[\s*['"`])abort\b/],
  ['process.kill(process.pid)', 'exit', /(?<![\w$])process\s*\.\s*kill\s*\(\s*process\s*\.\s*pid\b/],
  ['process.exitCode', 'exit', /(?<![\w$])process\s*\.\s*exitCode\s*(?:[|&?]{2})?=(?!=)/],
  // `node:assert` is deliberately absent: code under test may use assert for its own invariants.
  ['test framework import', 'framework', /\b(?:from|require|import)\s*\(?\s*['"`](?:node:test|vitest|@?jest|mocha|chai|sinon)(?:\/[\w./-]*)?['"`]/],
  ['mock.method', 'framework', /(?<![\w$])mock\s*\.\s*(?:method|fn|getter|setter|module|timers)\b/],
  ['jest.mock/vi.mock', 'framework', /(?<![\w$])(?:jest|vi)\s*\.\s*(?:mock|doMock|unmock|setMock)\s*\(/],
  ['jest.spyOn/vi.spyOn', 'framework', /(?<![\w$])(?:jest|vi)\s*\.\s*(?:spyOn|fn|replaceProperty|stubGlobal|stubEnv)\s*\(/],
  // Test-API receivers called with a test name: `cursor.skip(10)` and an iterator `it.skip(2)` are ordinary calls.
  ['test.skip', 'framework', /(?<![\w$])(?:describe|it|test|suite|context|specify)\s*\.\s*(?:(?:skip|todo)\s*(?:\(\s*['"`]|\.\s*each\b)|skipIf\s*\()/],
  ['test.only', 'framework', /(?<![\w$])(?:describe|it|test|suite|context|specify)\s*\.\s*only\s*(?:\(\s*['"`]|\.\s*each\b)/],
  ['xit/xdescribe', 'framework', /(?<![\w$.])(?:xit|xdescribe|xtest|xcontext)\s*\(/],
  ['assert.* assignment', 'assertion', /(?<![\w$.])(?:assert|require\s*\(\s*['"`](?:node:)?assert(?:\/strict)?['"`]\s*\))(?:\s*(?:\.\s*[\w$]+|\[[^\]\n]*\]))+\s*=(?!=)/],
  ['assert redefined', 'assertion', /\b(?:Object|Reflect)\s*\.\s*(?:defineProperty|defineProperties|assign|setPrototypeOf|set)\s*\(\s*(?:assert|expect|chai|should)\b/],
  // A local `const expect = …` shadows; assigning an existing `expect` replaces the runner's.
  // An object with this method equals anything in jest's and vitest's equality (`toEqual`, `toStrictEqual`).
  ['asymmetricMatch', 'assertion', /\basymmetricMatch\b/],
  ['expect reassigned', 'assertion', /(?<!(?:[\w$.]|(?:const|let|var)\s+))expect\s*=(?![=>])/],
  ['globalThis.expect', 'assertion', /(?<![\w$])(?:globalThis|global|window)\s*\.\s*(?:expect|assert|it|test|describe|jest|vi)\b/],
  ['require.cache', 'loader', /(?<![\w$])require\s*\.\s*(?:cache|extensions)\b/],
  ['Module._load', 'loader', /\bModule\s*\.\s*(?:_load|_resolveFilename|_extensions|_cache|prototype\s*\.\s*(?:require|_compile))\b/],
  ['module.constructor', 'loader', /(?<![\w$.])module\s*\.\s*constructor\b/],
  ['process.env assignment', 'env', /(?<![\w$])process\s*\.\s*env(?:\s*\.\s*[\w$]+|\s*\[[^\]\n]*\])\s*(?:[|&?]{2})?=(?!=)/],
  ['delete process.env', 'env', /\bdelete\s+process\s*\.\s*env\b/],
  ['process.env replaced', 'env', /\bObject\s*\.\s*assign\s*\(\s*process\s*\.\s*env\b|(?<![\w$])process\s*\.\s*env\s*=(?!=)/],
  ['process exit handler', 'hook', /(?<![\w$])process\s*\.\s*(?:on|once|addListener|prepend(?:Once)?Listener)\s*\(\s*['"`](?:exit|beforeExit|uncaughtException|unhandledRejection|SIG\w+)['"`]/],
  // Code that asks "am I under test?" can return what the test expects.
  ['test-runner detection', 'detect', /\b(?:NODE_TEST_CONTEXT|JEST_WORKER_ID|VITEST(?:_\w+)?|MOCHA_\w+)\b/],
];

const PYTHON: readonly Row[] = [
  ['os._exit', 'exit', /(?<![\w.])(?<!def\s+)(?:os\s*\.\s*)?_exit\s*\(/],
  ['sys.exit', 'exit', /(?<![\w.])sys\s*\.\s*exit\b/],
  ['exit()/quit()', 'exit', /(?<![\w.])(?<!def\s+)(?:exit|quit)\s*\(/, 'bare'],
  ['raise SystemExit', 'exit', /\braise\s+SystemExit\b/],
  ['os.kill(os.getpid())', 'exit', /(?<![\w.])os\s*\.\s*kill\s*\(\s*os\s*\.\s*getpid\s*\(/],
  ['os.abort', 'exit', /(?<![\w.])os\s*\.\s*abort\s*\(/],
  ['pytest import', 'framework', /(?:^|;)[ \t]*(?:import\s+(?:[\w.]+\s*,\s*)*_?pytest\b|from\s+_?pytest\b)|\b(?:__import__|import_module)\s*\(\s*['"]_?pytest/],
  ['pytest.skip', 'framework', /\bpytest\s*\.\s*(?:skip|importorskip)\b/],
  ['pytest.exit', 'framework', /\bpytest\s*\.\s*exit\b/],
  ['pytest.xfail', 'framework', /\bpytest\s*\.\s*xfail\b/],
  ['pytest.mark.skip', 'framework', /\bpytest\s*\.\s*mark\s*\.\s*(?:skip|skipif|xfail)\b/],
  ['unittest skip', 'framework', /\bunittest\s*\.\s*(?:skip\w*|SkipTest|expectedFailure)\b|\bskipTest\s*\(/],
  ['unittest.mock', 'framework', /\bunittest\s*\.\s*mock\b|\bfrom\s+unittest\s+import\b[^\n]*\bmock\b|^[ \t]*import\s+mock\b/],
  ['monkeypatch', 'framework', /\bmonkeypatch\b/],
  ['builtins assignment', 'assertion', /(?<![\w.])builtins\s*\.\s*\w+\s*=(?!=)|\bsetattr\s*\(\s*builtins\b/],
  ['TestCase.assert* assignment', 'assertion', /\bTestCase\s*\.\s*(?:assert|fail)\w*\s*=(?!=)/],
  ['setattr(unittest)', 'assertion', /\bsetattr\s*\(\s*(?:unittest|TestCase|_?pytest)\b/],
  // A returned object whose `__eq__` says true passes `assertEqual` and `assert x == y` whatever it holds.
  ['__eq__', 'assertion', /\b__eq__\b/, 'method'],
  ['AssertionError =', 'assertion', /(?<![\w.])AssertionError\s*=(?!=)/],
  ['sys.modules write', 'loader', /\bdel\s+sys\s*\.\s*modules\b|(?<![\w.])sys\s*\.\s*modules\s*(?:\[[^\]\n]*\]\s*=(?!=)|\.\s*(?:update|setdefault|pop|__setitem__)\s*\()/],
  ['sys.meta_path', 'loader', /(?<![\w.])sys\s*\.\s*(?:meta_path|path_hooks)\b/],
  ['__builtins__', 'loader', /\b__builtins__\b/],
  ['os.environ assignment', 'env', /(?<![\w.])(?:os\s*\.\s*)?environ\s*\[[^\]\n]*\]\s*=(?!=)|\bdel\s+(?:os\s*\.\s*)?environ\b/],
  ['os.environ.update', 'env', /(?<![\w.])(?:os\s*\.\s*)?environ\s*\.\s*(?:update|setdefault|pop|popitem|clear|__setitem__|__delitem__)\s*\(/],
  ['os.putenv', 'env', /(?<![\w.])os\s*\.\s*(?:putenv|unsetenv)\s*\(/],
  ['atexit.register', 'hook', /\batexit\s*\.\s*register\b/],
  ['signal.signal', 'hook', /\bsignal\s*\.\s*signal\s*\(/],
  ['sys.excepthook', 'hook', /(?<![\w.])sys\s*\.\s*excepthook\s*=(?!=)/],
  ['test-runner detection', 'detect', /\bPYTEST_(?:CURRENT_TEST|VERSION|XDIST_WORKER)\b|['"]_?pytest['"]\s+in\s+sys\s*\.\s*modules\b/],
];

const JVM: readonly Row[] = [
  ['System.exit', 'exit', /\bSystem\s*\.\s*exit\s*\(/],
  ['Runtime.halt/exit', 'exit', /\bRuntime\s*\.\s*getRuntime\s*\(\s*\)\s*\.\s*(?:halt|exit)\s*\(/],
  ['exitProcess', 'exit', /\bexitProcess\s*\(/],
  ['JUnit/TestNG', 'framework', /\borg\s*\.\s*(?:junit|testng)\b/],
  ['Assume.', 'framework', /\b(?:Assume|Assumptions)\s*\.\s*\w/],
  ['assumeTrue', 'framework', /(?<![\w.])(?:assume(?:True|False|That|NotNull|NoException)|assumingThat)\s*\(/],
  ['@Disabled/@Ignore', 'framework', /@(?:Disabled\w*|Ignore)\b/],
  ['System.setProperty', 'env', /\bSystem\s*\.\s*(?:setPropert(?:y|ies)|clearProperty)\s*\(/],
  ['shutdown hook', 'hook', /\bRuntime\s*\.\s*getRuntime\s*\(\s*\)\s*\.\s*addShutdownHook\b/],
];

const GO: readonly Row[] = [
  ['os.Exit', 'exit', /\bos\s*\.\s*Exit\s*\(/],
  ['syscall.Exit', 'exit', /\b(?:syscall|unix)\s*\.\s*Exit\s*\(/],
  ['testing import', 'framework', /^[ \t]*(?:import[ \t]+)?(?:(?!return\b)\w+[ \t]+)?"testing(?:\/\w+)?"[ \t]*$/],
  // Includes `testing.Testing()`, which lets code behave differently under `go test`.
  ['testing.', 'framework', /(?<![\w.])testing\s*\.\s*[A-Z]\w*/],
  // `Skip()` alone is common (xml.Decoder.Skip), so only test receivers or SkipNow/Skipf.
  ['t.Skip', 'framework', /(?<![\w.])(?:t|b|tb|f)\s*\.\s*Skip(?:Now|f)?\s*\(|\.\s*Skip(?:Now|f)\s*\(/],
  ['os.Setenv', 'env', /\bos\s*\.\s*(?:Setenv|Unsetenv|Clearenv)\s*\(/],
  ['flag.Set("test.…")', 'env', /\bflag\s*\.\s*(?:CommandLine\s*\.\s*)?Set\s*\(\s*"test\./],
];

const RUST: readonly Row[] = [
  ['process::exit', 'exit', /(?<![\w:])(?:std\s*::\s*)?process\s*::\s*exit\b/],
  ['process::abort', 'exit', /(?<![\w:])(?:std\s*::\s*)?process\s*::\s*abort\b/],
  ['libc exit', 'exit', /\blibc\s*::\s*(?:_?exit|_Exit|abort)\b/],
  ['exit()', 'exit', /(?<![\w.:])(?<!fn\s+)exit\s*\(/, 'bare'],
  ['#[ignore]', 'framework', /#\s*\[\s*ignore\b/],
  ['#[cfg(test)]', 'framework', /#\s*\[\s*cfg(?:_attr)?\s*\((?:\s*(?:not|any|all)\s*\()*\s*test\b/],
  ['cfg!(test)', 'framework', /\bcfg!\s*\((?:\s*(?:not|any|all)\s*\()*\s*test\b/],
  ['env::set_var', 'env', /(?<![\w.])(?:(?:std\s*::\s*)?env\s*::\s*)?(?:set_var|remove_var)\s*\(/],
];

// `->` and `::` count as member access, so `obj->exit(` and `Foo::exit(` are not the libc call.
const C: readonly Row[] = [
  ['exit()', 'exit', /(?<![\w.>:])(?:std\s*::\s*)?exit\s*\(/, 'bare'],
  ['_exit()', 'exit', /(?<![\w.>:])_(?:exit|Exit)\s*\(/, 'bare'],
  ['abort()', 'exit', /(?<![\w.>:])(?:std\s*::\s*)?abort\s*\(/, 'bare'],
  ['quick_exit()', 'exit', /(?<![\w.>:])(?:std\s*::\s*)?quick_exit\s*\(/, 'bare'],
  ['test framework include', 'framework', /#\s*include\s*[<"](?:gtest|gmock|catch2?|doctest|boost\/test)\b/],
  ['GTEST_SKIP', 'framework', /\bGTEST_SKIP\b|\bDISABLED_\w+/],
  ['assert macro redefined', 'assertion', /^[ \t]*#\s*(?:define|undef)\s+(?:assert|NDEBUG|(?:ASSERT|EXPECT)_\w+)\b/],
  ['setenv', 'env', /(?<![\w.>:])(?:setenv|unsetenv|clearenv|putenv|_w?putenv(?:_s)?|SetEnvironmentVariable[AW]?)\s*\(/],
  ['atexit', 'hook', /(?<![\w.>:])(?:std\s*::\s*)?(?:atexit|at_quick_exit|on_exit|set_terminate)\s*\(/],
  ['signal()', 'hook', /(?<![\w.>:])(?:std\s*::\s*)?(?:signal|sigaction)\s*\(\s*SIG/],
];

// Ruby calls need no parentheses, so the bare words are matched whole: not `exitCode`, `exits`, `on_exit_hook`,
// `@exit`, `:exit` or a `exit:` hash key.
const RUBY: readonly Row[] = [
  ['exit', 'exit', /(?<![\w.:@$])(?<!def\s+)exit(?![\w!?:])/, 'bare'],
  ['exit!', 'exit', /(?<![\w.:@$])(?<!def\s+)exit!/, 'bare'],
  ['abort', 'exit', /(?<![\w.:@$])(?<!def\s+)abort(?![\w!?:])/, 'bare'],
  ['Process.exit', 'exit', /\b(?:Kernel|Process)\s*(?:\.|::)\s*(?:exit!?|abort|kill)(?![\w?])/],
  ['test framework require', 'framework', /\brequire(?:_relative)?\s*\(?\s*['"](?:minitest|rspec|test\/unit|test_helper|spec_helper)\b/],
  ['test framework constant', 'framework', /\b(?:Minitest|MiniTest|RSpec|Test::Unit)\b/],
  ['skip', 'framework', /(?<![\w.:@$])(?:skip|pending|xit|xdescribe)\s*(?:\(|['"])/, 'bare'],
  ['assertion method redefined', 'assertion', /\b(?:define_method|alias_method|remove_method|undef_method)\s*\(?\s*:(?:assert|refute|expect|must|wont)\w*/],
  ['$LOADED_FEATURES', 'loader', /\$(?:LOADED_FEATURES|LOAD_PATH)\b|\$[":]\s*(?:<<|\.\s*(?:unshift|push|delete|clear|replace))/],
  ['ENV assignment', 'env', /\bENV\s*(?:\[[^\]\n]*\]\s*=(?!=)|\.\s*(?:store|update|merge!|replace|delete|clear)\b)/],
  ['at_exit', 'hook', /(?<![\w.:@$])at_exit\b/],
  ['trap', 'hook', /(?<![\w.:@$])(?:Signal\s*\.\s*)?trap\s*\(?\s*['":]/],
];

const CSHARP: readonly Row[] = [
  ['Environment.Exit', 'exit', /\bEnvironment\s*\.\s*(?:Exit|FailFast)\s*\(|\bApplication\s*\.\s*Exit\s*\(/],
  ['test framework import', 'framework', /\busing\s+(?:NUnit|Xunit|Microsoft\s*\.\s*VisualStudio\s*\.\s*TestTools)\b/],
  ['test skip', 'framework', /\bAssert\s*\.\s*(?:Inconclusive|Ignore|Pass)\s*\(|\[\s*(?:Ignore\b|Fact\s*\(\s*Skip\b)/],
  ['SetEnvironmentVariable', 'env', /\bEnvironment\s*\.\s*SetEnvironmentVariable\s*\(/],
  ['ProcessExit handler', 'hook', /\bProcessExit\s*\+=/],
];

const PHP: readonly Row[] = [
  ['exit/die', 'exit', /(?<![\w$>:\\])(?<!function\s+)(?:exit|die)\b(?!\s*=)/, 'bare'],
  ['PHPUnit', 'framework', /\bPHPUnit\b|->\s*markTest(?:Skipped|Incomplete)\s*\(/],
  ['putenv', 'env', /(?<![\w$>:\\])putenv\s*\(|\$_ENV\s*\[[^\]\n]*\]\s*=(?!=)/],
  ['register_shutdown_function', 'hook', /(?<![\w$>:\\])register_shutdown_function\s*\(/],
];

// Unknown languages: no comment syntax is assumed, so only calls that read as an exit almost everywhere.
const GENERIC: readonly Row[] = [
  ['exit()', 'exit', /(?<![\w.>:$])(?:exit|_exit|quit)\s*\(/],
  ['process exit', 'exit', /\b(?:process|System|os|sys|Process|Kernel|Environment)\s*\.\s*(?:exit|Exit|_exit|halt|FailFast)\b/],
];

interface Rule { readonly id: string; readonly what: string; readonly pattern: RegExp; readonly bare: boolean; readonly method: boolean }
interface Family { readonly syntax: Syntax; readonly rules: readonly Rule[] }

function family(name: string, syntax: Syntax, rows: readonly Row[]): Family {
  const rules = rows.map(([what, category, pattern, mode]) => ({
    id: `${name}/${category}/${what}`,
    what,
    pattern: new RegExp(pattern.source, 'gm'),
    bare: mode === 'bare',
    method: mode === 'method',
  }));
  return { syntax, rules };
}

const JS_FAMILY = family('js', { ...C_LIKE, quotes: '"\'`' }, JS);
const JVM_FAMILY = family('jvm', { ...C_LIKE, triple: true }, JVM);
const C_FAMILY = family('c', C_LIKE, C);
const GENERIC_FAMILY = family('generic', { comments: [], block: false, quotes: '', triple: false }, GENERIC);
// A Map, not an object literal: a language id such as 'constructor' must not find Object.prototype.
const FAMILIES: ReadonlyMap<string, Family> = new Map([
  ...['javascript', 'javascriptreact', 'typescript', 'typescriptreact'].map((id) => [id, JS_FAMILY] as const),
  ['python', family('python', { ...HASH, triple: true }, PYTHON)],
  ...['java', 'kotlin', 'scala'].map((id) => [id, JVM_FAMILY] as const),
  ['go', family('go', { ...C_LIKE, quotes: '"\'`' }, GO)],
  // Only `"`: a Rust `'` is usually a lifetime, which would open a string that never closes.
  ['rust', family('rust', { ...C_LIKE, quotes: '"' }, RUST)],
  ...['c', 'cpp', 'objective-c', 'objective-cpp', 'cuda-cpp'].map((id) => [id, C_FAMILY] as const),
  ['ruby', family('ruby', HASH, RUBY)],
  ['csharp', family('csharp', C_LIKE, CSHARP)],
  ['php', family('php', { ...C_LIKE, comments: ['//', '#'] }, PHP)],
]);

/** A class definition in Python, JavaScript and TypeScript (`class Name`), not `.class` or `className`. */
const CLASS = /(?<![\w$.])class\s+[A-Za-z_$]/;

const blank = (text: string) => text.replace(/[^\n]/g, ' ');

/**
 * The text with comments blanked (`code`), and also with string contents blanked (`bare`). Blanking keeps every
 * offset and line where it was, so a match's line is the line in the replacement.
 */
function views(text: string, syntax: Syntax): { code: string; bare: string } {
  const code: string[] = [];
  const bare: string[] = [];
  const stops = `${syntax.quotes}/#`;
  for (let i = 0, end = 0; i < text.length; i = end) {
    const ch = text[i];
    // After a backslash a marker is inside a regex literal (`/https?:\/\//`), not a comment.
    const mayComment = text[i - 1] !== '\\';
    const block = mayComment && syntax.block && text.startsWith('/*', i);
    if (block || (mayComment && syntax.comments.some((m) => text.startsWith(m, i)))) {
      const close = block ? text.indexOf('*/', i + 2) : text.indexOf('\n', i);
      end = close < 0 ? text.length : block ? close + 2 : close;
      code.push(blank(text.slice(i, end)));
      bare.push(code[code.length - 1]);
    } else if (syntax.quotes.includes(ch)) {
      const quote = syntax.triple && text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
      const spans = quote.length > 1 || ch === '`';
      let j = i + quote.length;
      while (j < text.length && !text.startsWith(quote, j) && (spans || text[j] !== '\n')) j += text[j] === '\\' ? 2 : 1;
      j = Math.min(j, text.length);
      end = text.startsWith(quote, j) ? j + quote.length : j;
      code.push(text.slice(i, end));
      bare.push(quote + blank(text.slice(i + quote.length, j)) + text.slice(j, end));
    } else {
      // Copy plain code up to the next character that could open a comment or a string, not one at a time.
      end = i + 1;
      while (end < text.length && !stops.includes(text[end])) end++;
      code.push(text.slice(i, end));
      bare.push(text.slice(i, end));
    }
  }
  return { code: code.join(''), bare: bare.join('') };
}

/** 1-based lines on which the rule's matches start. */
function matchLines(rule: Rule, view: { code: string; bare: string }): number[] {
  const text = rule.bare ? view.bare : view.code;
  const lines: number[] = [];
  let line = 1;
  let counted = 0;
  for (const match of text.matchAll(rule.pattern)) {
    for (; counted < match.index; counted++) if (text.charCodeAt(counted) === 10) line++;
    lines.push(line);
  }
  return lines;
}

/** Edits in `replacement` that change how tests run, that `original` (the selected text being replaced) did not already contain. */
export function findTestRunEdits(languageId: string, original: string, replacement: string): TestRunEdit[] {
  const { syntax, rules } = FAMILIES.get(languageId) ?? GENERIC_FAMILY;
  const before = views(original, syntax);
  const after = views(replacement, syntax);
  const originalLines = original.split('\n');
  const replacementLines = replacement.split('\n');
  const edits: TestRunEdit[] = [];
  const definesClass = CLASS.test(before.bare);
  for (const rule of rules) {
    if (rule.method && definesClass) continue;
    const was = matchLines(rule, before);
    const now = matchLines(rule, after);
    // Counting, not mere presence: keeping the original's `process.exit` is fine, adding a second one is not.
    if (now.length <= was.length) continue;
    // Blame the first occurrence on a line the original did not have, not a line it kept.
    const kept = was.map((n) => originalLines[n - 1].trim());
    const fresh = now.find((n) => {
      const at = kept.indexOf(replacementLines[n - 1].trim());
      if (at >= 0) kept.splice(at, 1);
      return at < 0;
    });
    edits.push({ rule: rule.id, what: rule.what, line: fresh ?? now[0] });
  }
  return edits.sort((a, b) => a.line - b.line);
}

/** One sentence for a verdict: 'changes how the tests run: process.exit (line 3)'; '' when there are none. */
export function describeTestRunEdits(edits: readonly TestRunEdit[]): string {
  if (edits.length === 0) return '';
  return `changes how the tests run: ${edits.map((edit) => `${edit.what} (line ${edit.line})`).join(', ')}`;
}
