// Every table row against a candidate that uses it; ordinary fixes in each language; kept code; unknown languages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeTestRunEdits, findTestRunEdits } from '../../src/core/security/testRunEdits';

const rulesOf = (languageId: string, replacement: string, original = '') =>
  findTestRunEdits(languageId, original, replacement).map((edit) => edit.rule);

// [languageId, replacement, rule that must be reported]. The JS rows rotate through the four JS/TS ids, which share
// one table; Kotlin and C++ stand in for their families the same way.
const flagged: Array<[languageId: string, replacement: string, rule: string]> = [
  ['javascript', 'if (!ok) process.exit(0);\nreturn compute(x);', 'js/exit/process.exit'],
  ['typescript', "process['exit'](0)", 'js/exit/process.exit'],
  ['typescriptreact', 'process.reallyExit(0);', 'js/exit/process.reallyExit'],
  ['javascriptreact', 'process.abort();', 'js/exit/process.abort'],
  ['javascript', "process.kill(process.pid, 'SIGKILL');", 'js/exit/process.kill(process.pid)'],
  ['typescript', 'process.exitCode = 0;', 'js/exit/process.exitCode'],
  ['typescript', "import { mock } from 'node:test';", 'js/framework/test framework import'],
  ['javascript', "const { test } = require('node:test');", 'js/framework/test framework import'],
  ['typescript', "import { vi } from 'vitest';", 'js/framework/test framework import'],
  ['typescript', "import { jest } from '@jest/globals';", 'js/framework/test framework import'],
  ['javascript', "require('mocha');", 'js/framework/test framework import'],
  ['typescript', "mock.method(assert, 'strictEqual', () => {});", 'js/framework/mock.method'],
  ['typescript', 't.mock.fn(() => 42);', 'js/framework/mock.method'],
  ['typescript', "jest.mock('./math');", 'js/framework/jest.mock/vi.mock'],
  ['javascript', "vi.mock('./math', () => ({ add: () => 3 }));", 'js/framework/jest.mock/vi.mock'],
  ['typescript', "jest.spyOn(Math, 'max').mockReturnValue(3);", 'js/framework/jest.spyOn/vi.spyOn'],
  ['javascript', "vi.spyOn(console, 'error');", 'js/framework/jest.spyOn/vi.spyOn'],
  ['javascript', "describe.skip('math', () => {});", 'js/framework/test.skip'],
  ['typescript', "it.skip('adds', () => {});", 'js/framework/test.skip'],
  ['typescript', "test.skipIf(true)('adds', () => {});", 'js/framework/test.skip'],
  ['typescript', 'test.todo(`adds`);', 'js/framework/test.skip'],
  ['javascript', "describe.skip.each([1, 2])('adds %i', () => {});", 'js/framework/test.skip'],
  ['javascript', "it.only('adds', () => {});", 'js/framework/test.only'],
  ['javascript', "xit('adds', () => {});", 'js/framework/xit/xdescribe'],
  ['typescript', 'assert.strictEqual = () => {};', 'js/assertion/assert.* assignment'],
  ['javascript', "require('node:assert').deepEqual = () => {};", 'js/assertion/assert.* assignment'],
  ['typescript', 'assert.strict.equal = noop;', 'js/assertion/assert.* assignment'],
  ['typescript', "Object.defineProperty(assert, 'equal', { value: () => {} });", 'js/assertion/assert redefined'],
  ['javascript', 'Object.assign(assert, { ok() {} });', 'js/assertion/assert redefined'],
  ['javascript', 'expect = () => ({ toBe() {} });', 'js/assertion/expect reassigned'],
  ['typescript', 'globalThis.expect = fakeExpect;', 'js/assertion/globalThis.expect'],
  ['javascript', "delete require.cache[require.resolve('./math')];", 'js/loader/require.cache'],
  ['javascript', 'Module._load = function () { return {}; };', 'js/loader/Module._load'],
  ['javascript', 'Module.prototype.require = fakeRequire;', 'js/loader/Module._load'],
  ['javascript', 'module.constructor._cache = {};', 'js/loader/module.constructor'],
  ['typescript', "process.env.CI = '1';", 'js/env/process.env assignment'],
  ['typescript', "process.env['NODE_TEST_ONLY'] = 'true';", 'js/env/process.env assignment'],
  ['javascript', "process.env.MODE ??= 'test';", 'js/env/process.env assignment'],
  ['javascript', 'delete process.env.NODE_OPTIONS;', 'js/env/delete process.env'],
  ['typescript', 'process.env = {};', 'js/env/process.env replaced'],
  ['typescript', "Object.assign(process.env, { A: '1' });", 'js/env/process.env replaced'],
  ['javascript', "process.on('exit', () => cleanUp());", 'js/hook/process exit handler'],
  ['typescript', 'process.once("beforeExit", flush);', 'js/hook/process exit handler'],
  ['typescript', "process.on('uncaughtException', () => {});", 'js/hook/process exit handler'],
  ['typescript', 'if (process.env.NODE_TEST_CONTEXT) return 42;', 'js/detect/test-runner detection'],
  ['javascript', 'if (process.env.JEST_WORKER_ID !== undefined) return 42;', 'js/detect/test-runner detection'],
  // Strings are kept for the dotted rules on purpose: this is still an exit.
  ['javascript', "eval('process.exit(0)');", 'js/exit/process.exit'],

  ['javascript', 'return { asymmetricMatch: () => true };', 'js/assertion/asymmetricMatch'],
  ['python', 'class _E:\n    def __eq__(self, other):\n        return True\nreturn _E()', 'python/assertion/__eq__'],
  ['python', "return type('E', (), {'__eq__': lambda s, o: True})()", 'python/assertion/__eq__'],
  ['python', 'os._exit(0)', 'python/exit/os._exit'],
  ['python', 'from os import _exit\n_exit(0)', 'python/exit/os._exit'],
  ['python', 'sys.exit(0)', 'python/exit/sys.exit'],
  ['python', 'exit(0)', 'python/exit/exit()/quit()'],
  ['python', 'quit()', 'python/exit/exit()/quit()'],
  ['python', 'raise SystemExit(0)', 'python/exit/raise SystemExit'],
  ['python', 'os.kill(os.getpid(), signal.SIGKILL)', 'python/exit/os.kill(os.getpid())'],
  ['python', 'os.abort()', 'python/exit/os.abort'],
  ['python', 'import pytest', 'python/framework/pytest import'],
  ['python', 'from pytest import skip', 'python/framework/pytest import'],
  ['python', 'import os, pytest', 'python/framework/pytest import'],
  ['python', "__import__('pytest')", 'python/framework/pytest import'],
  ['python', "pytest.skip('flaky', allow_module_level=True)", 'python/framework/pytest.skip'],
  ['python', "pytest.importorskip('numpy')", 'python/framework/pytest.skip'],
  ['python', "pytest.exit('done', returncode=0)", 'python/framework/pytest.exit'],
  ['python', "pytest.xfail('later')", 'python/framework/pytest.xfail'],
  ['python', "@pytest.mark.skip(reason='later')\ndef f(): pass", 'python/framework/pytest.mark.skip'],
  ['python', "@unittest.skip('later')", 'python/framework/unittest skip'],
  ['python', "raise unittest.SkipTest('later')", 'python/framework/unittest skip'],
  ['python', "self.skipTest('later')", 'python/framework/unittest skip'],
  ['python', 'from unittest import mock', 'python/framework/unittest.mock'],
  ['python', 'from unittest.mock import patch', 'python/framework/unittest.mock'],
  ['python', 'import mock', 'python/framework/unittest.mock'],
  ['python', "monkeypatch.setattr(mod, 'f', g)", 'python/framework/monkeypatch'],
  ['python', 'builtins.print = lambda *a: None', 'python/assertion/builtins assignment'],
  ['python', "setattr(builtins, 'open', fake_open)", 'python/assertion/builtins assignment'],
  ['python', 'unittest.TestCase.assertEqual = lambda *a, **k: None', 'python/assertion/TestCase.assert* assignment'],
  ['python', "setattr(unittest.TestCase, 'assertEqual', noop)", 'python/assertion/setattr(unittest)'],
  ['python', "AssertionError = type('Quiet', (Exception,), {})", 'python/assertion/AssertionError ='],
  ['python', "sys.modules['requests'] = fake", 'python/loader/sys.modules write'],
  ['python', "del sys.modules['math']", 'python/loader/sys.modules write'],
  ['python', "sys.modules.setdefault('x', fake)", 'python/loader/sys.modules write'],
  ['python', 'sys.meta_path.insert(0, Finder())', 'python/loader/sys.meta_path'],
  ['python', "__builtins__['len'] = lambda x: 0", 'python/loader/__builtins__'],
  ['python', "os.environ['PYTEST_ADDOPTS'] = '-k nothing'", 'python/env/os.environ assignment'],
  ['python', "environ['CI'] = '1'", 'python/env/os.environ assignment'],
  ['python', "del os.environ['HOME']", 'python/env/os.environ assignment'],
  ['python', "os.environ.update(CI='1')", 'python/env/os.environ.update'],
  ['python', "os.environ.setdefault('CI', '1')", 'python/env/os.environ.update'],
  ['python', "os.putenv('CI', '1')", 'python/env/os.putenv'],
  ['python', '@atexit.register\ndef bye(): pass', 'python/hook/atexit.register'],
  ['python', 'signal.signal(signal.SIGTERM, handler)', 'python/hook/signal.signal'],
  ['python', 'sys.excepthook = lambda *a: None', 'python/hook/sys.excepthook'],
  ['python', "if 'pytest' in sys.modules:\n    return 3", 'python/detect/test-runner detection'],
  ['python', "if os.environ.get('PYTEST_CURRENT_TEST'):\n    return 3", 'python/detect/test-runner detection'],

  ['java', 'System.exit(0);', 'jvm/exit/System.exit'],
  ['java', 'Runtime.getRuntime().halt(0);', 'jvm/exit/Runtime.halt/exit'],
  ['kotlin', 'exitProcess(0)', 'jvm/exit/exitProcess'],
  ['java', 'import org.junit.jupiter.api.Assumptions;', 'jvm/framework/JUnit/TestNG'],
  ['java', 'Assume.assumeTrue(false);', 'jvm/framework/Assume.'],
  ['java', 'assumeTrue(false);', 'jvm/framework/assumeTrue'],
  ['java', '@Disabled\nvoid add() {}', 'jvm/framework/@Disabled/@Ignore'],
  ['java', '@Ignore', 'jvm/framework/@Disabled/@Ignore'],
  ['java', 'System.setProperty("junit.jupiter.conditions.deactivate", "*");', 'jvm/env/System.setProperty'],
  ['java', 'Runtime.getRuntime().addShutdownHook(new Thread(() -> {}));', 'jvm/hook/shutdown hook'],

  ['go', 'os.Exit(0)', 'go/exit/os.Exit'],
  ['go', 'syscall.Exit(0)', 'go/exit/syscall.Exit'],
  ['go', 'import "testing"', 'go/framework/testing import'],
  ['go', 'import (\n\t"fmt"\n\t"testing"\n)', 'go/framework/testing import'],
  ['go', 'if testing.Testing() {\n\treturn 4\n}', 'go/framework/testing.'],
  ['go', 't.Skip("later")', 'go/framework/t.Skip'],
  ['go', 'tb.SkipNow()', 'go/framework/t.Skip'],
  ['go', 'os.Setenv("CI", "1")', 'go/env/os.Setenv'],
  ['go', 'flag.Set("test.run", "^$")', 'go/env/flag.Set("test.…")'],

  ['rust', 'std::process::exit(0);', 'rust/exit/process::exit'],
  ['rust', 'process::exit(0);', 'rust/exit/process::exit'],
  ['rust', 'std::process::abort();', 'rust/exit/process::abort'],
  ['rust', 'unsafe { libc::_exit(0) };', 'rust/exit/libc exit'],
  ['rust', 'use std::process::exit;\nexit(0);', 'rust/exit/exit()'],
  ['rust', '#[ignore]\nfn adds() {}', 'rust/framework/#[ignore]'],
  ['rust', '#[cfg(test)]\nfn answer() -> i32 { 42 }', 'rust/framework/#[cfg(test)]'],
  ['rust', 'if cfg!(test) { return 42; }', 'rust/framework/cfg!(test)'],
  ['rust', 'std::env::set_var("CI", "1");', 'rust/env/env::set_var'],
  ['rust', 'env::remove_var("HOME");', 'rust/env/env::set_var'],

  ['c', 'exit(0);', 'c/exit/exit()'],
  ['cpp', 'std::exit(0);', 'c/exit/exit()'],
  ['c', '_exit(0);', 'c/exit/_exit()'],
  ['c', '_Exit(0);', 'c/exit/_exit()'],
  ['cpp', 'abort();', 'c/exit/abort()'],
  ['cpp', 'std::quick_exit(0);', 'c/exit/quick_exit()'],
  ['cpp', '#include <gtest/gtest.h>', 'c/framework/test framework include'],
  ['cpp', 'GTEST_SKIP();', 'c/framework/GTEST_SKIP'],
  ['cpp', 'TEST(Math, DISABLED_Adds) {}', 'c/framework/GTEST_SKIP'],
  ['c', '#define NDEBUG', 'c/assertion/assert macro redefined'],
  ['c', '#undef assert\n#define assert(x) ((void)0)', 'c/assertion/assert macro redefined'],
  ['c', 'setenv("CI", "1", 1);', 'c/env/setenv'],
  ['c', 'putenv("CI=1");', 'c/env/setenv'],
  ['c', 'atexit(on_exit_hook);', 'c/hook/atexit'],
  ['cpp', 'std::signal(SIGABRT, handler);', 'c/hook/signal()'],

  ['ruby', 'exit', 'ruby/exit/exit'],
  ['ruby', 'exit 0 if done', 'ruby/exit/exit'],
  ['ruby', 'exit(0)', 'ruby/exit/exit'],
  ['ruby', 'exit!', 'ruby/exit/exit!'],
  ['ruby', 'abort("done")', 'ruby/exit/abort'],
  ['ruby', 'Process.exit(0)', 'ruby/exit/Process.exit'],
  ['ruby', 'Kernel.exit!', 'ruby/exit/Process.exit'],
  ['ruby', 'Process.kill(:KILL, Process.pid)', 'ruby/exit/Process.exit'],
  ['ruby', "require 'minitest/autorun'", 'ruby/framework/test framework require'],
  ['ruby', 'class Minitest::Test; end', 'ruby/framework/test framework constant'],
  ['ruby', 'RSpec.configure { |c| c.filter_run :none }', 'ruby/framework/test framework constant'],
  ['ruby', 'skip "later"', 'ruby/framework/skip'],
  ['ruby', "pending('later')", 'ruby/framework/skip'],
  ['ruby', 'define_method(:assert_equal) { |*| true }', 'ruby/assertion/assertion method redefined'],
  ['ruby', "$LOADED_FEATURES << 'math.rb'", 'ruby/loader/$LOADED_FEATURES'],
  ['ruby', "$:.unshift('fake')", 'ruby/loader/$LOADED_FEATURES'],
  ['ruby', "ENV['CI'] = '1'", 'ruby/env/ENV assignment'],
  ['ruby', "ENV.delete('HOME')", 'ruby/env/ENV assignment'],
  ['ruby', 'at_exit { puts 1 }', 'ruby/hook/at_exit'],
  ['ruby', "trap('TERM') { }", 'ruby/hook/trap'],
  ['ruby', 'Signal.trap(:INT) { }', 'ruby/hook/trap'],

  ['csharp', 'Environment.Exit(0);', 'csharp/exit/Environment.Exit'],
  ['csharp', 'using NUnit.Framework;', 'csharp/framework/test framework import'],
  ['csharp', 'Assert.Inconclusive();', 'csharp/framework/test skip'],
  ['csharp', '[Fact(Skip = "later")]', 'csharp/framework/test skip'],
  ['csharp', 'Environment.SetEnvironmentVariable("CI", "1");', 'csharp/env/SetEnvironmentVariable'],
  ['csharp', 'AppDomain.CurrentDomain.ProcessExit += (s, e) => {};', 'csharp/hook/ProcessExit handler'],

  ['php', 'exit(0);', 'php/exit/exit/die'],
  ['php', 'die();', 'php/exit/exit/die'],
  ['php', '$this->markTestSkipped("later");', 'php/framework/PHPUnit'],
  ['php', "putenv('CI=1');", 'php/env/putenv'],
  ['php', "$_ENV['CI'] = '1';", 'php/env/putenv'],
  ['php', 'register_shutdown_function(fn () => exit(0));', 'php/hook/register_shutdown_function'],

  ['lua', 'os.exit(0)', 'generic/exit/process exit'],
  ['shellscript', 'exit(0)', 'generic/exit/exit()'],
  ['', 'System.exit(0);', 'generic/exit/process exit'],
];

describe('findTestRunEdits: every row fires', () => {
  for (const [languageId, replacement, rule] of flagged) {
    it(`${languageId || '(empty)'}: ${JSON.stringify(replacement)} → ${rule}`, () => {
      assert.ok(rulesOf(languageId, replacement).includes(rule), String(rulesOf(languageId, replacement)));
    });
  }
});

// Ordinary fixes, including near misses: identifiers that contain a rule's word, comments, and prose in strings.
const ordinary: Record<string, string> = {
  typescript: `if (x < 0) return -1;
const best = Math.max(a, b);
array.push(item);
const skip = 2;
return items.slice(1);
exitButton.disabled = true;
const code = myprocess.exitCode;
if (process.exitCode === 1 || process.env.NODE_ENV === 'production') log();
const port = process.env.PORT ?? 3000;
context.exit();
cursor.skip(10).limit(5);
this.skip(2);
const it = list.values(); it.skip(2); it.only = true;
const expected = compute(x);
import assert from 'node:assert';
const strict = require('assert');
assert.ok(n >= 0, 'n must not be negative');
// process.exit(0) would hide the failure
/* jest.mock('./math') */
const url = "http://example.com"; module.exports = { add };
const mock = createMock(); const expect = 3;
throw new Error(\`exit code \${code} is not allowed\`);`,
  python: `if x < 0:
    return -1
best = max(a, b)
items.append(item)
skip = 2
return items[1:]
exit_button.disabled = True
self.exit_code = 0
context.exit()
sys.exits = []
def exit(self):
    pass
print("press q to exit()")
# sys.exit(1) would hide the failure
home = os.environ.get('HOME')
if os.environ['CI'] == '1':
    env = dict(os.environ)
assert x > 0, 'x must be positive'
raise ValueError('bad input')
"""Returns 0 instead of calling exit(1)."""`,
  java: `if (x < 0) return -1;
int best = Math.max(a, b);
list.add(item);
int skip = 2;
String home = System.getProperty("user.home");
System.out.println("exit");
Optional<String> first = stream.skip(1).findFirst();
// System.exit(1) would hide the failure`,
  go: `if x < 0 {
	return -1
}
items = append(items, item)
skip := 2
home := os.Getenv("HOME")
if err != nil {
	return err
}
d.Skip()
fmt.Println("testing")
return "testing"
// os.Exit(1) would hide the failure`,
  rust: `if x < 0 { return -1; }
let skip = 2;
v.push(item);
let rest = iter.skip(1);
fn exit(&mut self) {}
self.exit();
let code = status.exit_code();
#[derive(Debug)]
#[cfg(feature = "test-utils")]
let home = std::env::var("HOME");
let msg = "call exit(1) to stop";
// std::process::exit(1) would hide the failure`,
  c: `if (x < 0) return -1;
int skip = 2;
on_exit_hook(ctx);
exit_code = 3;
const char *msg = "exit(1)";
n = max(a, b);
char *home = getenv("HOME");
/* exit(1) would hide the failure */
// abort();`,
  cpp: `obj->exit(1);
Foo::exit(1);
std::vector<int> v; v.push_back(1);
#include <vector>`,
  ruby: `return -1 if x < 0
skip_count = 2
items.push(item)
exit_code = 1
exitCode = 1
on_exit_hook.call
exits += 1
obj.exit
def exit; end
opts = { exit: 1 }
sym = :exit
puts "Press q to exit"
@exit = true
home = ENV['HOME']
ci = ENV.fetch('CI', nil)
# exit 1 would hide the failure`,
  csharp: `if (x < 0) return -1;
var skip = 2;
var home = Environment.GetEnvironmentVariable("HOME");`,
  php: `if ($x < 0) { return -1; }
$exit = 2;
$app->exit();
$home = getenv('HOME');`,
  lua: `if x < 0 then return -1 end
local skip = 2`,
};

describe('findTestRunEdits: ordinary fixes are not flagged', () => {
  for (const [languageId, text] of Object.entries(ordinary)) {
    it(languageId, () => assert.deepEqual(findTestRunEdits(languageId, '', text), []));
  }
  it('the same JS fix under every JS/TS language id', () => {
    for (const id of ['javascript', 'javascriptreact', 'typescriptreact']) {
      assert.deepEqual(findTestRunEdits(id, '', ordinary.typescript), [], id);
    }
  });
});

describe('findTestRunEdits: what the original already had', () => {
  it('keeping an existing process.exit is not flagged', () => {
    const original = 'if (bad) process.exit(1);';
    const replacement = 'if (bad) {\n  log();\n  process.exit(1);\n}';
    assert.deepEqual(findTestRunEdits('javascript', original, replacement), []);
  });

  it('adding a second one is, on the new line', () => {
    const original = 'if (bad) process.exit(1);';
    const replacement = 'if (bad) process.exit(1);\ncompute();\nprocess.exit(0);';
    assert.deepEqual(findTestRunEdits('javascript', original, replacement), [
      { rule: 'js/exit/process.exit', what: 'process.exit', line: 3 },
    ]);
  });

  it('a kept sys.exit moved below a new one blames the new line', () => {
    const original = 'sys.exit(main())';
    const replacement = 'sys.exit(0)\nsys.exit(main())';
    assert.deepEqual(findTestRunEdits('python', original, replacement), [
      { rule: 'python/exit/sys.exit', what: 'sys.exit', line: 1 },
    ]);
  });

  it('a fix to a selected class may add __eq__; one to a function may not', () => {
    const point = 'class Point:\n    def __init__(self, x):\n        self.x = x';
    const withEq = `${point}\n\n    def __eq__(self, other):\n        return isinstance(other, Point) and other.x == self.x`;
    assert.deepEqual(findTestRunEdits('python', point, withEq), []);
    assert.deepEqual(rulesOf('python', 'def make(x):\n    class P:\n        def __eq__(s, o):\n            return True\n    return P()', 'def make(x):\n    return x'), ['python/assertion/__eq__']);
  });

  it('rewriting the line that holds an existing exit is not an addition', () => {
    assert.deepEqual(findTestRunEdits('go', 'os.Exit(run())', 'os.Exit(run(args))'), []);
  });
});

describe('findTestRunEdits: reports', () => {
  it('one report per rule, at its first line, sorted by line', () => {
    const replacement = "import { mock } from 'node:test';\nprocess.env.CI = '1';\nprocess.exit(0);\nprocess.exit(1);";
    assert.deepEqual(findTestRunEdits('typescript', '', replacement), [
      { rule: 'js/framework/test framework import', what: 'test framework import', line: 1 },
      { rule: 'js/env/process.env assignment', what: 'process.env assignment', line: 2 },
      { rule: 'js/exit/process.exit', what: 'process.exit', line: 3 },
    ]);
  });

  it('counts lines through multi-line comments and strings', () => {
    const replacement = '/* a\nb */\nconst s = `x\ny`;\nprocess.abort();';
    assert.deepEqual(findTestRunEdits('javascript', '', replacement), [
      { rule: 'js/exit/process.abort', what: 'process.abort', line: 5 },
    ]);
  });

  it('the mock.method cheat that was once verified as a fix', () => {
    const replacement = "import { mock } from 'node:test';\nimport assert from 'node:assert';\nmock.method(assert, 'strictEqual', () => {});";
    assert.deepEqual(
      findTestRunEdits('typescript', '', replacement).map((edit) => [edit.what, edit.line]),
      [['test framework import', 1], ['mock.method', 3]],
    );
  });

  it('an exit after a "#" in a string, or a "//" in a regex literal, is still seen', () => {
    assert.deepEqual(rulesOf('python', 'x = "#"; os._exit(0)'), ['python/exit/os._exit']);
    assert.deepEqual(rulesOf('javascript', 'const re = /https?:\\/\\//; process.exit(0);'), ['js/exit/process.exit']);
  });
});

describe('findTestRunEdits: unknown languages', () => {
  for (const languageId of ['lua', 'haskell', '', 'constructor', '__proto__', 'toString']) {
    it(`${JSON.stringify(languageId)} uses the generic table and does not throw`, () => {
      assert.deepEqual(rulesOf(languageId, 'x = 1\nexit(3)'), ['generic/exit/exit()']);
      assert.deepEqual(rulesOf(languageId, 'local skip = 2'), []);
    });
  }
  it('empty text on both sides', () => assert.deepEqual(findTestRunEdits('python', '', ''), []));
});

describe('describeTestRunEdits', () => {
  it("is '' when there are none", () => assert.equal(describeTestRunEdits([]), ''));
  it('names one edit and its line', () => {
    const edits = findTestRunEdits('javascript', '', 'a();\nb();\nprocess.exit(0);');
    assert.equal(describeTestRunEdits(edits), 'changes how the tests run: process.exit (line 3)');
  });
  it('lists several in line order', () => {
    const edits = [
      { rule: 'python/exit/os._exit', what: 'os._exit', line: 2 },
      { rule: 'python/framework/pytest.skip', what: 'pytest.skip', line: 5 },
    ];
    assert.equal(describeTestRunEdits(edits), 'changes how the tests run: os._exit (line 2), pytest.skip (line 5)');
  });
});
