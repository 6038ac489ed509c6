// pytest: an engine-owned plugin records, test by test, the lines of one file each test ran (sys.settrace, no `coverage` needed).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { shellQuote } from '../testResults/shell';
import type { TestSpectrum } from './ochiai';

/** The plugin's module name: `-p` loads it from the output folder, which PYTHONPATH names. */
export const PLUGIN_MODULE = 'verified_fix_coverage';

/**
 * The plugin. Each test's setup, call and teardown run under a trace function that follows only frames of the
 * target file (matched, like every path here, by ending with `/<relative path>`), so other code costs one check per
 * call. A test's outcome is its reports': any failed phase makes it failed, a passed call passed, else skipped.
 * Each process writes its own file (pytest-xdist workers load the plugin too). Python 3.8 and later; sys.settrace
 * rather than sys.monitoring, which 3.11 lacks.
 */
export const PLUGIN_SOURCE = `# Verified Fix: per-test lines of one file, for fault localisation. Written by the engine; not part of the project.
import json, os, sys
import pytest

_TARGET = os.environ.get("VERIFIED_FIX_COVERAGE_TARGET", "").replace("\\\\", "/")
_OUT = os.environ.get("VERIFIED_FIX_COVERAGE_OUT", "")
_tests = {}
_known = {}
_lines = set()


def _is_target(filename):
    hit = _known.get(filename)
    if hit is None:
        path = filename.replace("\\\\", "/")
        hit = _known[filename] = bool(_TARGET) and (path == _TARGET or path.endswith("/" + _TARGET))
    return hit


def _local(frame, event, arg):
    if event == "line":
        _lines.add(frame.f_lineno)
    return _local


def _global(frame, event, arg):
    if not _is_target(frame.f_code.co_filename):
        return None
    _lines.add(frame.f_lineno)
    return _local


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _lines
    _lines = set()
    previous = sys.gettrace()
    sys.settrace(_global)
    try:
        yield
    finally:
        sys.settrace(previous)
        _tests.setdefault(item.nodeid, {"outcome": "skipped", "lines": set()})["lines"].update(_lines)


def pytest_runtest_logreport(report):
    test = _tests.setdefault(report.nodeid, {"outcome": "skipped", "lines": set()})
    if report.failed:
        test["outcome"] = "failed"
    elif report.when == "call" and report.passed and test["outcome"] != "failed":
        test["outcome"] = "passed"


def pytest_sessionfinish(session, exitstatus):
    if not _OUT:
        return
    tests = {nodeid: {"outcome": t["outcome"], "lines": sorted(t["lines"])} for nodeid, t in _tests.items()}
    with open(os.path.join(_OUT, "pytest-%d.json" % os.getpid()), "w") as out:
        json.dump({"target": _TARGET, "tests": tests}, out)
`;

/** `python3 -m pytest …` with the plugin: PYTHONPATH gets the folder first (in the command's own assignment, if it has one). */
export function withPlugin(command: string, outputDir: string, relativePath: string): string {
  const dir = shellQuote(outputDir);
  const variables = `VERIFIED_FIX_COVERAGE_TARGET=${shellQuote(relativePath)} VERIFIED_FIX_COVERAGE_OUT=${dir}`;
  const own = /(^|\s)PYTHONPATH=/;
  const pythonPath = own.test(command) ? '' : ` PYTHONPATH=${dir}\${PYTHONPATH:+:$PYTHONPATH}`;
  const body = own.test(command) ? command.replace(own, (_, space: string) => `${space}PYTHONPATH=${dir}:`) : command;
  return `${variables}${pythonPath} ${body} -p ${PLUGIN_MODULE}`;
}

/** Each test the plugin saw that passed or failed, with its lines; skipped ones are left out. Never throws. */
export function pytestSpectra(reports: readonly unknown[]): Map<string, TestSpectrum> {
  const spectra = new Map<string, TestSpectrum>();
  for (const report of reports) {
    const tests = (report as { tests?: unknown })?.tests;
    if (!tests || typeof tests !== 'object') continue;
    for (const [id, test] of Object.entries(tests as Record<string, { outcome?: unknown; lines?: unknown }>)) {
      if (test?.outcome !== 'passed' && test?.outcome !== 'failed') continue;
      const lines = Array.isArray(test.lines) ? test.lines.filter((l): l is number => Number.isSafeInteger(l) && l > 0) : [];
      const seen = spectra.get(id);
      spectra.set(id, { failed: test.outcome === 'failed' || (seen?.failed ?? false), lines: new Set([...(seen?.lines ?? []), ...lines]) });
    }
  }
  return spectra;
}

/** The plugin's files in `dir`, parsed; unreadable ones skipped. */
export async function readPytestReports(dir: string): Promise<unknown[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const reports: unknown[] = [];
  for (const name of names.filter((n) => /^pytest-\d+\.json$/.test(n))) {
    try {
      reports.push(JSON.parse(await readFile(join(dir, name), 'utf8')));
    } catch {
      // cut short by a timeout, or not the plugin's
    }
  }
  return reports;
}
