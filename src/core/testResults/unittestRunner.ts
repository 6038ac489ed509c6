// `python -m unittest`: the engine's runner script in its place, which runs unittest's own main program with a
// result class that records every test and a guard on unittest's assertions.
import { PYTHON_EQUALITY_SOURCE } from './pythonEquality';

/** The script's file name in the run's output folder. */
export const UNITTEST_RUNNER_FILE = 'verified_fix_unittest.py';

/** The variable naming the report (JSON lines), and the one with the ids to run (a JSON list), if any. */
export const UNITTEST_REPORT_VARIABLE = 'VERIFIED_FIX_UNITTEST_REPORT';
export const UNITTEST_ONLY_VARIABLE = 'VERIFIED_FIX_UNITTEST_ONLY';

/**
 * The script, run as `python SCRIPT ARGS` where the user wrote `python -m unittest ARGS`. It does what unittest's
 * `__main__` does (`main(module=None)`: the same arguments, discovery, `-v`, `-f`, `-k`, the same output and exit
 * status), with the folder the run started in first on `sys.path` as `python -m` puts it. Each test's outcome goes
 * to the report as one JSON line when it ends (a run cut short keeps what ended), its id `file > Class > method`
 * (the file relative to that folder; a module that fails to import is its file, when that can be found).
 *
 * With ids to run, the tests are loaded as the arguments say and then only those (and tests inside a listed file or
 * class) are kept, so a selection never depends on how the project's test modules are named on `sys.path`.
 *
 * The guard: unittest's own functions (on TestCase, TestResult, TextTestResult, TextTestRunner, TestSuite) are
 * noted when the script starts; a test that ends as passed after one of them was replaced or removed is recorded
 * and counted as failed, naming what changed. Values that are not functions (`maxDiff`, `longMessage`) may change,
 * and new names may be added (a suite's own aliases). So is one that passes after the code under test made an object
 * that equals anything (pythonEquality.ts).
 */
export const UNITTEST_RUNNER_SOURCE = `# Verified Fix: runs "python -m unittest" as unittest's own __main__ does, recording each test for the engine.
# Written by the engine; not part of the project.
import inspect
import json
import os
import sys
import unittest

__unittest = True  # unittest leaves this module's frames out of tracebacks

_REPORT = os.environ.pop('${UNITTEST_REPORT_VARIABLE}', '')
_ONLY = os.environ.pop('${UNITTEST_ONLY_VARIABLE}', '')
_CWD = os.getcwd()
sys.path[0] = _CWD
sys.argv[0] = 'python -m unittest'
${PYTHON_EQUALITY_SOURCE}

_eq_scan(False)

_OWNERS = (unittest.TestCase, unittest.TestResult, unittest.TextTestResult, unittest.TextTestRunner, unittest.TestSuite)


def _functions():
    return {owner.__name__ + '.' + name: value for owner in _OWNERS for name, value in list(vars(owner).items())
            if callable(value) or isinstance(value, (staticmethod, classmethod, property))}


_NOTED = _functions()


def _changed():
    now = _functions()
    return sorted(name for name, value in _NOTED.items() if now.get(name) is not value)


def _relative(path):
    rel = os.path.relpath(os.path.abspath(path), _CWD).replace(os.sep, '/')
    return None if rel.startswith('../') else rel


def _id(test):
    cls = type(test)
    method = getattr(test, '_testMethodName', None)
    if cls.__module__ == 'unittest.loader' and method:
        # A module that failed to import (or a name that did not resolve): its file, where an entry of sys.path
        # inside the run's folder (discovery's start folder is one) holds it.
        stem = method.replace('.', '/')
        for entry in sys.path:
            for candidate in (stem + '.py', stem + '/__init__.py'):
                path = os.path.join(entry or _CWD, candidate)
                rel = _relative(path) if os.path.isfile(path) else None
                if rel:
                    return rel
        return test.id()
    if isinstance(test, unittest.TestCase) and method:
        try:
            path = inspect.getsourcefile(cls) or inspect.getfile(cls)
        except TypeError:
            path = None
        rel = _relative(path) if path else None
        if rel:
            return rel + ' > ' + cls.__qualname__ + ' > ' + method
    return test.id()


def _write(entry):
    if not _REPORT:
        return
    with open(_REPORT, 'a', encoding='utf-8') as report:
        report.write(json.dumps(entry) + '\\n')


class _Recording(unittest.TextTestResult):
    def startTest(self, test):
        _eq_test_starts()
        super().startTest(test)

    def stopTest(self, test):
        _eq_test_ends()
        super().stopTest(test)

    def _record(self, test, outcome, err=None):
        entry = {'id': _id(test), 'outcome': outcome}
        if err is not None:
            entry['message'] = self._exc_info_to_string(err, test)[-4000:]
        _write(entry)

    def addSuccess(self, test):
        changed = _changed()
        equal = _eq_test_ends()
        if changed or equal:
            what = ('unittest was changed during the run (' + ', '.join(changed[:5]) + ')' if changed else
                    'the code under test made objects that equal anything (' + ', '.join(equal[:5]) + ')')
            try:
                raise AssertionError('Verified Fix: ' + what + ': the test counts as failed')
            except AssertionError:
                self.addFailure(test, sys.exc_info())
            return
        super().addSuccess(test)
        self._record(test, 'passed')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, 'failed', err)

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, 'failed', err)

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._record(test, 'failed', err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, 'skipped')

    def addExpectedFailure(self, test, err):
        # Skipped, as unittest's summary and pytest count an expected failure: it did not pass.
        super().addExpectedFailure(test, err)
        self._record(test, 'skipped')

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, 'failed')


class _Runner(unittest.TextTestRunner):
    resultclass = _Recording


def _wanted(test, only):
    # The test itself, a test inside a listed file or class, or a module that failed to load a listed test's file.
    own = _id(test)
    return own in only or any(own.startswith(wanted + ' > ') or wanted.startswith(own + ' > ') for wanted in only)


def _keep(suite, only):
    kept = unittest.TestSuite()
    for test in suite:
        if isinstance(test, unittest.TestSuite):
            inner = _keep(test, only)
            if inner.countTestCases():
                kept.addTest(inner)
        elif _wanted(test, only):
            kept.addTest(test)
    return kept


class _Program(unittest.TestProgram):
    def createTests(self, *args, **kwargs):
        super().createTests(*args, **kwargs)
        # Classes the test modules and the code they import made as they loaded are not the tests' own.
        _eq_scan(False)
        if _ONLY:
            self.test = _keep(self.test, set(json.loads(_ONLY)))


if _REPORT:
    open(_REPORT, 'w').close()
_Program(module=None, testRunner=_Runner)
`;
