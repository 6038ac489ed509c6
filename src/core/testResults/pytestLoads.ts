// pytest's record of what each file imports, for the tests that can reach a change: part of the report plugin, inert
// unless the baseline run names a file for it.

/** The variable naming the loads file; the plugin removes it on import, so pytest-xdist workers write nothing. */
export const PYTEST_LOADS_VARIABLE = 'VERIFIED_FIX_PYTEST_LOADS';

/** The loads file's name in the run's output folder. */
export const PYTEST_LOADS_FILE = 'verified-fix-pytest-loads.txt';

/**
 * Appended to the report plugin. Every `import` statement calls `builtins.__import__`, a module already loaded too,
 * so wrapping it (and `importlib.import_module`) records each importing file's edges to the files of the modules it
 * names: the package `__init__.py` files on the way and the submodules a `from … import` names. Each collected test
 * file is written with an edge to itself, so a file that imports nothing still left a record. Written at the end of
 * the run, `parent\tchild` lines relative to the folder pytest started in; a run that is killed writes none.
 */
export const PYTEST_LOADS_SOURCE = `

# Which files each file imports: the engine's record of the tests that can reach a change.
import builtins as _builtins
import importlib as _importlib
import sys as _sys

_LOADS = os.environ.pop("${PYTEST_LOADS_VARIABLE}", None)
_CWD = os.getcwd()
_edges = set()


def _note(importer, name, fromlist, level):
    try:
        parent = importer.get("__file__") if importer else None
        if not parent:
            return
        if level:
            package = importer.get("__package__") or importer.get("__name__", "").rpartition(".")[0]
            base = package.rsplit(".", level - 1)[0] if level > 1 else package
            name = base + "." + name if name else base
        parts = name.split(".")
        names = [".".join(parts[: i + 1]) for i in range(len(parts))]
        names += [name + "." + item for item in (fromlist or ()) if isinstance(item, str)]
        for full in names:
            child = getattr(_sys.modules.get(full), "__file__", None)
            if child:
                _edges.add((parent, child))
    except Exception:
        pass


if _LOADS is not None:
    _import = _builtins.__import__
    _import_module = _importlib.import_module

    def _recording_import(name, globals=None, locals=None, fromlist=(), level=0):
        module = _import(name, globals, locals, fromlist, level)
        _note(globals, name, fromlist, level)
        return module

    def _recording_import_module(name, package=None):
        module = _import_module(name, package)
        _note(_sys._getframe(1).f_globals, module.__name__, (), 0)
        return module

    _builtins.__import__ = _recording_import
    _importlib.import_module = _recording_import_module


def pytest_collection_finish(session):
    if _LOADS is None:
        return
    for item in getattr(session, "items", ()):
        path = str(getattr(item, "path", None) or getattr(item, "fspath", ""))
        if path:
            _edges.add((path, path))


def _loads_unconfigure(config):
    if _LOADS is None:
        return
    try:
        rel = lambda p: os.path.relpath(p, _CWD).replace(os.sep, "/")
        with open(_LOADS, "w", encoding="utf-8") as out:
            for parent, child in sorted(_edges):
                out.write(rel(parent) + "\\t" + rel(child) + "\\n")
    except Exception:
        pass
`;
