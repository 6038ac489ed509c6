// pytest's side channel: a plugin loaded with `-p` writes one JSON line per test phase, whatever the user's addopts.
import { shellQuote } from './shell';
import { PYTEST_LOADS_SOURCE } from './pytestLoads';
import { PYTEST_ROUNDS_SOURCE } from './pytestRounds';
import { PYTHON_EQUALITY_SOURCE } from './pythonEquality';

/** The plugin's module name: `-p` loads it from the run's output folder, which PYTHONPATH names. */
export const PYTEST_PLUGIN_MODULE = 'verified_fix_pytest_report';

/** The variable naming the report; the plugin removes it on import, so pytest-xdist workers and nested pytests write nothing. */
export const PYTEST_REPORT_VARIABLE = 'VERIFIED_FIX_PYTEST_REPORT';

/**
 * The plugin. It records each test phase's report (setup, call, teardown) and each failed collection as one JSON
 * line, written as it happens (a run killed by a timeout keeps the tests that ended). Ids are pytest's node ids
 * with the path made relative to the folder pytest runs in (node ids are relative to the rootdir, which an ini file
 * higher up moves), so that they select the same tests when given back as arguments. With pytest-xdist the
 * controller gets every worker's reports through the same hook. It leaves `-q`/`-v`, `-x`, `--maxfail`, addopts and
 * the user's own `--junitxml` alone. pytest 3.0 and later, Python 3. A test reported after something that judges tests
 * was replaced (unittest's assertions, pytest's report classes and runner functions, as they were when the plugin
 * loaded) is recorded failed, with the replaced names as its message: a candidate that patches them through names
 * built at run time, which no static check can read, fails. So does one reported after the code under test made an
 * object that equals anything (pythonEquality.ts).
 */
export const PYTEST_PLUGIN_SOURCE = `# Verified Fix: records pytest's per-test results for the engine. Written by the engine; not part of the project.
import json, os

_PATH = os.environ.pop("${PYTEST_REPORT_VARIABLE}", None)
_out = None
_root = None


def _write(row):
    global _out
    if _PATH is None:
        return
    try:
        if _out is None:
            _out = open(_PATH, "w", encoding="utf-8")
        _out.write(json.dumps(row) + "\\n")
        _out.flush()
    except Exception:
        pass


def _id(nodeid):
    if not _root or not nodeid:
        return nodeid
    path, sep, rest = nodeid.partition("::")
    try:
        rel = os.path.relpath(os.path.join(_root, path), os.getcwd()).replace(os.sep, "/")
    except ValueError:
        return nodeid
    return nodeid if rel.startswith("..") else rel + sep + rest


def _text(report):
    # The crash line ("assert 2 == 1", "ImportError: ...") first: the long form starts with source lines.
    try:
        text = getattr(report, "longreprtext", None)
        if text is None:
            text = str(report.longrepr)
        crash = getattr(getattr(report.longrepr, "reprcrash", None), "message", None)
        return ((crash + "\\n" if crash else "") + text)[:4000]
    except Exception:
        return ""


def pytest_configure(config):
    global _root
    try:
        _root = str(getattr(config, "rootpath", None) or config.rootdir)
    except Exception:
        _root = None
    # -x, --maxfail, from the command or addopts: the run ends at that many failures.
    maxfail = getattr(config.option, "maxfail", 0)
    if isinstance(maxfail, int) and maxfail > 0:
        _write({"maxfail": maxfail})
${PYTHON_EQUALITY_SOURCE}

_eq_scan(False)


def pytest_collection_modifyitems(items):
    # Classes the test modules and the code they import made as they loaded are not the tests' own (the loads
    # record below has pytest_collection_finish).
    _eq_scan(False)


def pytest_runtest_logstart(nodeid, location):
    _eq_test_starts()


def _guarded():
    # What judges a test, taken as it is when the plugin loads (before conftests and the code under test): a
    # candidate that replaces one of them through a name built at run time fails every test reported after it.
    found = {}
    try:
        import unittest
        for name, value in vars(unittest.TestCase).items():
            if name.startswith(("assert", "fail")) and callable(value):
                found["unittest.TestCase." + name] = value
    except Exception:
        pass
    try:
        from _pytest import reports, runner
        for cls in (reports.BaseReport, reports.TestReport):
            for name, value in list(vars(cls).items()):
                found[cls.__name__ + "." + name] = value
        for name in ("call_and_report", "runtestprotocol", "call_runtest_hook", "check_interactive_exception"):
            if hasattr(runner, name):
                found["_pytest.runner." + name] = getattr(runner, name)
    except Exception:
        pass
    return found


_GUARDED = _guarded()


def _replaced(now=_guarded, before=_GUARDED):
    current = now()
    return sorted(name for name, value in before.items() if current.get(name) is not value)


def pytest_runtest_logreport(report):
    outcome = "failed" if report.failed else "skipped" if report.skipped else "passed"
    row = {"id": _id(report.nodeid), "when": report.when, "outcome": outcome}
    if report.failed:
        row["message"] = _text(report)
    replaced = _replaced()
    if replaced:
        row["outcome"] = "failed"
        row["message"] = "verified-fix: replaced during the run, so no result of it counts: " + ", ".join(replaced[:5])
    # The call phase is the test's verdict (its setup's objects are new by then too); scanning every phase costs more.
    equal = _eq_test_ends() if report.when == "call" else None
    if equal and row["outcome"] == "passed":
        row["outcome"] = "failed"
        row["message"] = "verified-fix: the code under test made objects that equal anything, so no result of it counts: " + ", ".join(equal[:5])
    _write(row)


def pytest_collectreport(report):
    if report.failed:
        _write({"id": _id(report.nodeid), "when": "collect", "outcome": "failed", "message": _text(report)})
    _r_collected(report)
${PYTEST_LOADS_SOURCE}${PYTEST_ROUNDS_SOURCE}

def pytest_unconfigure(config):
    _loads_unconfigure(config)
    _r_rounds(config)
`;

/**
 * `base` with the plugin: the report's variable and PYTHONPATH (the output folder first, inside the command's own
 * `PYTHONPATH=` if it has one) before it, `-p PLUGIN` after it, and `-p no:cacheprovider` so no .pytest_cache lands
 * in the copy.
 */
export function withReportPlugin(base: string, reportPath: string, outputDir: string): string {
  const dir = shellQuote(outputDir);
  const own = /(^|\s)PYTHONPATH=/;
  const pythonPath = own.test(base) ? '' : ` PYTHONPATH=${dir}\${PYTHONPATH:+:$PYTHONPATH}`;
  const body = own.test(base) ? base.replace(own, (_, space: string) => `${space}PYTHONPATH=${dir}:`) : base;
  return `${PYTEST_REPORT_VARIABLE}=${shellQuote(reportPath)}${pythonPath} ${body} -p no:cacheprovider -p ${PYTEST_PLUGIN_MODULE}`;
}
