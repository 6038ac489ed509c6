// pytest's shared stage 1: part of the report plugin, inert unless a shared run's plan is named. One started Python
// and pytest run one round per candidate (sharedRounds.ts; verification/stageOneBatch.ts plans and reads them).
import { ROUNDS_OVERRUN_FILE, ROUND_MARK, STOPPED_MARK } from './sharedRounds';
import type { RoundStop } from './sharedRounds';

/** The variable naming the plan; the plugin removes it on import, so nested pytests and workers run one round. */
export const PYTEST_BATCH_VARIABLE = 'VERIFIED_FIX_PYTEST_BATCH';


/**
 * After the first session ends (pytest_unconfigure), the plugin runs the next candidate's round in the same process:
 * it writes that candidate's text over the file under repair (and removes its cached bytecode: a mutant of the same
 * size written within the same second would otherwise load the old one), drops every module of the project (files
 * under the working folder outside site-packages) from `sys.modules`, and calls `pytest.main` again with the same
 * arguments, as pytest's own in-process runs do. It stops, and the engine runs the rest elsewhere, where a round
 * could reach the next: a changed built-in or module of the standard library that tests use most (compared by
 * identity with their values from before any test loaded), a replaced unittest assertion or pytest report class
 * or an object that equals anything (the plugin's guards, which fail every test after them), a thread left running, a round that could not collect
 * (the candidate's own run then happens on its own), collected another number of tests, or never imported the file
 * under repair. A round that keeps the thread busy past `roundMs` of CPU time is ended by a watchdog thread.
 * Needs pytest 5.1 (`config.invocation_params`); before it, the run is an ordinary one.
 */
export const PYTEST_ROUNDS_SOURCE = `

# Shared stage 1: one round per candidate in this process (inert without a plan).
import json as _r_json
import sys as _r_sys
import threading as _r_threading
import time as _r_time

_R_PLAN = os.environ.pop("${PYTEST_BATCH_VARIABLE}", None)
_r = {"running": False, "round": 0, "started": _r_time.monotonic(), "collected": 0, "failed": True, "collect_error": None, "tick": [0]}


def _r_values():
    import builtins, collections, functools, itertools, json, math, operator, re, unittest
    import os.path as ospath
    found = {}
    for label, module in (("builtins", builtins), ("collections", collections), ("functools", functools), ("itertools", itertools),
                          ("json", json), ("math", math), ("operator", operator), ("re", re), ("os.path", ospath), ("unittest", unittest),
                          ("unittest.TestCase", unittest.TestCase)):
        for name, value in list(vars(module).items()):
            found[label + "." + name] = value
    return found


def _r_changed(before):
    # A package gains its submodules as they are imported (unittest.mock): only those may appear.
    now = _r_values()
    for name in sorted(set(before) | set(now)):
        if name not in before and isinstance(now[name], type(_r_sys)):
            continue
        if name not in now or name not in before or now[name] is not before[name]:
            return name
    return ""


def _r_watch(limit_ms, path):
    tick = _r["tick"]

    def watch():
        seen, since = 0, 0.0
        while True:
            _r_time.sleep(0.1)
            current, cpu = tick[0], _r_time.process_time()
            if current != seen:
                seen, since = current, cpu
            elif current > 0 and (cpu - since) * 1000 > limit_ms:
                try:
                    with open(path, "w") as out:
                        out.write("%d %d" % (current - 1, int((cpu - since) * 1000)))
                except Exception:
                    pass
                os.kill(os.getpid(), 9)

    thread = _r_threading.Thread(target=watch, name="verified-fix-watchdog", daemon=True)
    thread.start()


def _r_locate(name, first):
    at = os.getcwd()
    for _ in range(50):
        path = os.path.join(at, name)
        try:
            with open(path, encoding="utf-8") as handle:
                if handle.read() == first:
                    return os.path.realpath(path)
        except Exception:
            pass
        if os.path.dirname(at) == at:
            break
        at = os.path.dirname(at)
    return None


def _r_project_modules():
    root = os.path.realpath(os.getcwd()) + os.sep
    found = []
    for name, module in list(_r_sys.modules.items()):
        if module is None or name == __name__:
            continue
        files = [getattr(module, "__file__", None)] + list(getattr(module, "__path__", None) or [])
        for file in files:
            if not isinstance(file, str):
                continue
            real = os.path.realpath(file)
            parts = real.split(os.sep)
            if real.startswith(root) and "site-packages" not in parts and "dist-packages" not in parts:
                found.append((name, real))
                break
    return found


if _R_PLAN is not None:
    try:
        with open(_R_PLAN, encoding="utf-8") as _r_handle:
            _r_plan = _r_json.load(_r_handle)
        _r_dir = os.path.dirname(_R_PLAN)
        with open(os.path.join(_r_dir, _r_plan["first"]), encoding="utf-8") as _r_handle:
            _r["target"] = _r_locate(_r_plan["target"], _r_handle.read())
        _r["texts"] = [os.path.join(_r_dir, name) for name in _r_plan["texts"]]
        _r["before"] = _r_values()
        if _r["target"] and _r_plan.get("roundMs"):
            _r_watch(_r_plan["roundMs"], os.path.join(_r_dir, "${ROUNDS_OVERRUN_FILE}"))
        _r["tick"][0] = 1
        _r["threads"] = _r_threading.active_count()
    except Exception:
        _R_PLAN = None


def _r_age_ms():
    # How long this process has run: what a new process for the rounds left would pay again before its first round.
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started = int(stat.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
            return max(0.0, (float(uptime.read().split()[0]) - started) * 1000)
    except Exception:
        return _r_time.process_time() * 1000


def pytest_sessionstart(session):
    _r["started"] = _r_time.monotonic()
    if "startup_ms" not in _r:
        _r["startup_ms"] = _r_age_ms()
    _r["collect_error"] = None


def pytest_sessionfinish(session):
    _r["collected"] = getattr(session, "testscollected", 0)
    _r["failed"] = bool(getattr(session, "testsfailed", 0))


def _r_collected(report):
    if report.failed and _r["collect_error"] is None:
        _r["collect_error"] = (_text(report).strip().splitlines() or [""])[-1][:200]


def _r_stop(why, detail=None):
    _write({"${STOPPED_MARK}": why, "detail": detail})


def _r_end_round():
    # Closes the round that just ended; True when the next may run in this process.
    at = _r["round"]
    _r["tick"][0] = 0
    if _r["collect_error"] is not None:
        _r_stop("${'unloadable' satisfies RoundStop}", _r["collect_error"])
        return False
    if at == 0:
        _r["first_collected"] = _r["collected"]
    elif _r["collected"] != _r["first_collected"]:
        _r_stop("${'notSame' satisfies RoundStop}")
        return False
    ms = int((_r_time.monotonic() - _r["started"]) * 1000)
    _r.setdefault("ms", []).append(ms)
    _write({"${ROUND_MARK}": at, "ms": ms})
    if at >= len(_r["texts"]):
        return False
    # The first pass of the request goes on to its own runs, unless the rounds left take less than starting anew. A
    # round's cost is known from one after the first (which imports once what every round shares): a pass in the
    # first round goes on for one more to learn it.
    _r["passed"] = _r.get("passed", False) or not _r["failed"]
    if _r_plan.get("stopAfterPass") and _r["passed"] and at > 0:
        rest = len(_r["texts"]) - at
        each = sum(_r["ms"][1:]) / len(_r["ms"][1:])
        # A process of their own starts, and runs a first round that imports once what all share.
        starting = _r.get("startup_ms", 0) + max(0, _r["ms"][0] - each)
        if rest * each >= starting:
            _r_stop("${'firstPass' satisfies RoundStop}", "rounds left: %d, about %.1f s; a process of their own: about %.1f s to start" % (rest, rest * each / 1000, starting / 1000))
            return False
    # The plugin's own guards stay tripped once tripped: a round after it would fail whatever it ran.
    changed = _r_changed(_r["before"]) or ", ".join(_replaced()[:3])
    if changed:
        _r_stop("${'builtins' satisfies RoundStop}", changed)
        return False
    if _eq_flagged:
        _r_stop("${'equalsAnything' satisfies RoundStop}")
        return False
    if _r_threading.active_count() > _r["threads"]:
        _r_stop("${'thread' satisfies RoundStop}")
        return False
    if not any(real == _r["target"] for _, real in _r_project_modules()):
        _r_stop("${'notImported' satisfies RoundStop}")
        return False
    return True


def _r_rounds(config):
    if _R_PLAN is None or _r["running"] or not _r.get("target"):
        return
    args = getattr(getattr(config, "invocation_params", None), "args", None)
    if args is None:
        return
    _r["running"] = True
    import importlib
    import pytest
    _r_sys.dont_write_bytecode = True
    while _r_end_round():
        at = _r["round"] + 1
        try:
            with open(_r["texts"][at - 1], encoding="utf-8") as source, open(_r["target"], "w", encoding="utf-8") as target:
                target.write(source.read())
            try:
                os.remove(importlib.util.cache_from_source(_r["target"]))
            except Exception:
                pass
        except Exception:
            _r_stop("${'unwritable' satisfies RoundStop}")
            return
        for name, _ in _r_project_modules():
            _r_sys.modules.pop(name, None)
        importlib.invalidate_caches()
        _r["round"] = at
        _r["tick"][0] = at + 1
        pytest.main(list(args), plugins=list(getattr(config.invocation_params, "plugins", None) or []))
`;
