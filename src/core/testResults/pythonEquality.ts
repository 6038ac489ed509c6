// Objects that equal anything, made by the code under test while a test runs: part of the pytest plugin and of the
// `python -m unittest` script.

/**
 * Python shared by both guards: `_eq_test_starts()` when a test starts, `_eq_test_ends()` when it (or one of its phases)
 * ends, whatever the outcome: the classes found so far that claim to equal anything, as "name (file)" (empty when
 * none); a passed test is counted failed when there are any. A candidate that keeps the bug and
 * returns such an object passes `assertEqual(answer(), 42)` and `assert answer() == 42` alike, and its names can be
 * built at run time (`setattr(E, '__e' + 'q__', …)`, `type('E', (), {…})`), which no static check reads.
 *
 * Suspects are the classes of the project's own modules (files under the folder the run started in, not tests, not
 * an installed package) that were made while the test ran (a `class` statement, seen through
 * `builtins.__build_class__`, or `type(…)` with no base of its own, seen among `object.__subclasses__()`), or whose
 * `__eq__` changed while it ran. A suspect equals anything when its `__eq__`, given a new instance (made without
 * `__init__`) and an object of a private class, says true. Classes made when modules load (a module's own
 * wildcard, such as a library's `ANY`) are left alone: only a test's own run makes suspects. Each class and
 * `__eq__` is judged once, and a class found stays found: the tests after it fail too, as after an assertion patch.
 */
export const PYTHON_EQUALITY_SOURCE = `

# Objects that equal anything, made by the project's code while a test runs.
import builtins as _eq_builtins
import os as _eq_os
import sys as _eq_sys
import weakref as _eq_weakref

_EQ_ROOT = _eq_os.path.realpath(_eq_os.getcwd())
_EQ_SKIP = {"site-packages", "dist-packages", "test", "tests", "testing", "node_modules"}
_eq_files = {}
_eq_classes = {}
_eq_seen = {}
_eq_judged = {}
_eq_suspects = []
_eq_flagged = []
_eq_build = _eq_builtins.__build_class__


def _eq_file(cls):
    # The class's module file relative to the run's folder, when it is the project's own code (not a test).
    name = getattr(cls, "__module__", None)
    if name not in _eq_files:
        rel = None
        try:
            path = getattr(_eq_sys.modules.get(name), "__file__", None)
            if path:
                rel = _eq_os.path.relpath(_eq_os.path.realpath(path), _EQ_ROOT).replace(_eq_os.sep, "/")
                parts = rel.split("/")
                if rel.startswith("../") or _EQ_SKIP.intersection(parts[:-1]) or parts[-1].startswith(("test", "conftest")) or parts[-1].endswith("_test.py"):
                    rel = None
        except Exception:
            rel = None
        _eq_files[name] = rel
    return _eq_files[name]


def _eq_note(cls, made_in_test):
    if cls in _eq_classes or not _eq_file(cls):
        return
    _eq_classes[cls] = cls.__dict__.get("__eq__")
    if made_in_test:
        _eq_suspects.append(cls)


def _eq_build_class(*args, **kwargs):
    cls = _eq_build(*args, **kwargs)
    try:
        if isinstance(cls, type):
            _eq_note(cls, False)
    except Exception:
        pass
    return cls


_eq_builtins.__build_class__ = _eq_build_class


def _eq_scan(made_in_test):
    # type(name, (), namespace): a class no statement made, seen as a new direct subclass of object.
    try:
        now = object.__subclasses__()
    except Exception:
        return
    # By id (a set difference, in C: most scans find nothing new); a class's id leaves the record when the class
    # dies, so a new class that reuses it counts as new.
    new = set(map(id, now)).difference(_eq_seen)
    # The list keeps the order classes were made in (CPython): the new ones are at its end.
    for cls in reversed(now):
        if not new:
            break
        if id(cls) in new:
            new.discard(id(cls))
            _eq_seen[id(cls)] = _eq_weakref.ref(cls, lambda _, key=id(cls): _eq_seen.pop(key, None))
            _eq_note(cls, made_in_test)


def _eq_test_starts():
    # The scan at each test's end keeps the record current: classes made between tests are the runner's.
    del _eq_suspects[:]
    for cls in _eq_classes:
        _eq_classes[cls] = cls.__dict__.get("__eq__")


class _EqProbe(object):
    __slots__ = ()

    def __eq__(self, other):
        return NotImplemented

    __hash__ = object.__hash__


def _eq_anything(cls):
    eq = cls.__dict__.get("__eq__")
    if eq is None:
        return False
    judged = _eq_judged.get(cls)
    if judged is None or judged[0] is not eq:
        try:
            try:
                self = object.__new__(cls)
            except Exception:
                self = None
            said = cls.__eq__(self, _EqProbe())
            judged = (eq, said is not NotImplemented and bool(said))
        except Exception:
            judged = (eq, False)
        _eq_judged[cls] = judged
    return judged[1]


def _eq_test_ends():
    # Called whatever the outcome (a failing test's objects may be reused by the next); once found, a class stays found.
    if _eq_builtins.__build_class__ is not _eq_build_class and "builtins.__build_class__ replaced" not in _eq_flagged:
        _eq_flagged.append("builtins.__build_class__ replaced")
    _eq_scan(True)
    changed = [cls for cls, eq in list(_eq_classes.items()) if cls.__dict__.get("__eq__") is not eq]
    for cls in _eq_suspects + changed:
        if _eq_anything(cls):
            text = cls.__qualname__ + " (" + _eq_file(cls) + ")"
            if text not in _eq_flagged:
                _eq_flagged.append(text)
    return _eq_flagged
`;
