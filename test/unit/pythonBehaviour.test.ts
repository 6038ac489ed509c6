// The Python behaviour check's parts that need no process: where the prologue goes (no line moves where it can
// join a line), which function and kind the selection names, which interpreter replays, and results read with
// suspicion.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pythonOf } from '../../src/core/behaviour/pythonCheck';
import { locatePython } from '../../src/core/behaviour/pythonLocate';
import { pythonRecordingText } from '../../src/core/behaviour/pythonRecord';
import { readPythonResults } from '../../src/core/behaviour/pythonResults';

async function located(text: string, needle: string) {
  const at = text.indexOf(needle);
  return locatePython(text, at, at + needle.length);
}

describe('the Python behaviour check', () => {
  it('puts the prologue at the top of the body, after a docstring, joined to a simple statement\'s line', async () => {
    const text = 'def page_count(items, per_page):\n    """Pages."""\n    return items // per_page\n';
    const r = await located(text, 'items // per_page');
    assert.ok('located' in r, JSON.stringify(r));
    assert.deepEqual([r.located.qualname, r.located.kind], ['page_count', 'function']);
    const recorded = pythonRecordingText(text, r.located);
    const lines = recorded.split('\n');
    assert.equal(lines.length, text.split('\n').length, 'no line moves');
    assert.equal(lines[1], '    """Pages."""', 'the docstring stays the docstring');
    assert.match(lines[2], /^ {4}\(__import__\('builtins'\).*\(dict\(locals\(\)\), __name__\); return items \/\/ per_page$/);
    // Before a compound statement it gets a line of its own, at the body's indentation.
    const loop = 'def total(xs):\n    for x in xs:\n        pass\n';
    const l = await located(loop, 'pass');
    assert.ok('located' in l);
    assert.match(pythonRecordingText(loop, l.located).split('\n')[1], /^ {4}\(__import__.*__name__\)$/);
  });

  it('names methods by class and kind, and says why a function cannot be replayed', async () => {
    const text = [
      'class Stats:',
      '    def median(self):',
      '        return 1',
      '    @staticmethod',
      '    def of(xs):',
      '        return 2',
      '    @classmethod',
      '    def empty(cls):',
      '        return 3',
      '    @property',
      '    def size(self):',
      '        return 4',
      'def outer():',
      '    def inner():',
      '        return 5',
      '',
    ].join('\n');
    const kinds = await Promise.all(['return 1', 'return 2', 'return 3'].map((n) => located(text, n)));
    assert.deepEqual(kinds.map((k) => ('located' in k ? `${k.located.qualname}:${k.located.kind}` : k.problem)), ['Stats.median:instance', 'Stats.of:static', 'Stats.empty:class']);
    assert.deepEqual(await located(text, 'return 4'), { problem: 'the function cannot be called from outside: it is a property' });
    assert.deepEqual(await located(text, 'return 5'), { problem: 'the function cannot be called from outside: it is declared inside another function' });
    assert.deepEqual(await located('x = 1\n', 'x = 1'), { problem: 'the selection is not inside a function' });
  });

  it('replays with the interpreter the test command names', () => {
    assert.equal(pythonOf('.venv/bin/python -m pytest -q'), '.venv/bin/python');
    assert.equal(pythonOf('python3.12 -m unittest'), 'python3.12');
    assert.equal(pythonOf('.venv/bin/pytest tests'), '.venv/bin/python');
    assert.equal(pythonOf('PYTHONPATH=src pytest'), 'python3');
    assert.equal(pythonOf('tox -e py'), 'python3');
  });

  it('reads the harness\'s results only when they are well formed', () => {
    const good = { observed: 1, generated: 1, failingInputs: 1, calls: ['f(1)', 'f(2)'], fromFailing: [true, false], outcomes: [{ kind: 'returned', key: '1|{}', text: '1' }, { kind: 'threw', name: 'ValueError', message: 'no' }] };
    const read = readPythonResults(JSON.stringify(good));
    assert.ok('outcomes' in read && read.outcomes.length === 2, JSON.stringify(read));
    assert.deepEqual(readPythonResults(JSON.stringify({ status: 'notReplayable', reason: 'its arguments cannot be copied (x)' })), { status: 'notReplayable', reason: 'its arguments cannot be copied (x)' });
    assert.deepEqual(readPythonResults(undefined), { problem: 'its replay wrote no results' });
    assert.deepEqual(readPythonResults('tampered'), { problem: 'its replay results could not be read' });
    assert.deepEqual(readPythonResults(JSON.stringify({ ...good, outcomes: [] })), { problem: 'its replay results hold 0 outcomes for 2 inputs' });
    assert.deepEqual(readPythonResults(JSON.stringify({ ...good, outcomes: [{ kind: 'returned' }, { kind: 'same' }] })), { problem: 'its replay results hold an outcome that is not one' });
  });
});
