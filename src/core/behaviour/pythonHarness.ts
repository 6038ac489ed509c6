// The Python replay harness: a script the check writes to a replay run's output folder and runs with the project's
// Python in the run's tree. It reads the recorded calls, generates inputs near them with the engine's own seeded
// generator (the same rules as neighbours.ts), imports the module under repair as the tests did, calls the function
// on every input under a time limit per call, and writes each outcome to results.json. Every version's run makes the
// same inputs from the same recording; the engine checks that it did.
import { PYTHON_GENERATOR_SOURCE } from './pythonNeighbours';

export const PYTHON_HARNESS_FILE = 'replay.py';
export const PYTHON_RESULTS_FILE = 'results.json';
/** The recordings, base64 (output files are text): the failing tests' calls, then the whole suite's. */
export const PYTHON_FAILING_FILE = 'failing.b64';
export const PYTHON_ALL_FILE = 'all.b64';

/**
 * The module under test runs in the harness's own process, so nothing here is secret from it: the harness takes what
 * it writes with before the module loads (the results descriptor, json.dumps, os._exit, which skips the module's
 * atexit hooks) and leaves the judging to the engine, which checks each run's results on their own.
 */
export const PYTHON_HARNESS_SOURCE = String.raw`# Verified Fix behaviour check: replays one function of the module under repair on the recorded inputs and inputs
# generated near them (the engine's own seeded generator), and writes each outcome to results.json.
import sys, os, json, pickle, io, struct, math, random, copy, signal, time, importlib, inspect, asyncio, itertools, types, re, base64
_open, _write, _close, _exit, _dumps, _monotonic, _loads, _pdumps = os.open, os.write, os.close, os._exit, json.dumps, time.monotonic, pickle.loads, pickle.dumps
out_dir, rel_path, qualname, kind = sys.argv[1:5]
per_call, budget = float(sys.argv[5]) / 1000, float(sys.argv[6]) / 1000
max_observed, max_inputs = int(sys.argv[7]), int(sys.argv[8])
# Opened before the module loads: the results go to this descriptor whatever the module does to the path.
results = _open(os.path.join(out_dir, 'results.json'), os.O_WRONLY | os.O_TRUNC | os.O_CREAT, 0o600)

def finish(value):
    _write(results, _dumps(value).encode('utf-8'))
    _close(results)
    _exit(0)

class Outer(pickle.Unpickler):
    # A frame's outer layer holds only the module's name, the inner pickle and a reason: nothing to import.
    def find_class(self, module, name):
        raise pickle.UnpicklingError('not a frame')

def frames(name):
    try:
        with open(os.path.join(out_dir, name), 'rb') as f:
            data = base64.b64decode(f.read())
    except Exception:
        return []
    out, at = [], 0
    while at + 4 <= len(data):
        (length,) = struct.unpack_from('<I', data, at)
        if at + 4 + length > len(data):
            break
        try:
            frame = Outer(io.BytesIO(data[at + 4:at + 4 + length])).load()
            if isinstance(frame, tuple) and len(frame) == 3 and isinstance(frame[0], str):
                out.append(frame)
        except Exception:
            pass
        at += 4 + length
    return out

FULL, SHORT = 20000, 80

def canon(v, depth=0):
    # One text per value, equal for equal values across processes: sorted dicts and sets, no addresses.
    if depth > 6:
        return '...'
    t = type(v)
    if v is None or t in (bool, int, str, bytes, complex):
        return repr(v)
    if t is float:
        return 'nan' if v != v else '0.0' if v == 0 else repr(v)
    sub = lambda xs: [canon(x, depth + 1) for x in itertools.islice(xs, 1000)]
    if isinstance(v, tuple) and hasattr(v, '_fields'):
        return t.__qualname__ + '(' + ', '.join(f + '=' + canon(getattr(v, f), depth + 1) for f in v._fields) + ')'
    name = '' if t in (list, tuple, dict, set, frozenset) else t.__qualname__
    if isinstance(v, list):
        return name + '[' + ', '.join(sub(v)) + ']'
    if isinstance(v, tuple):
        items = sub(v)
        return name + '(' + ', '.join(items) + (',' if len(items) == 1 else '') + ')'
    if isinstance(v, dict):
        pairs = sorted((canon(k, depth + 1), canon(x, depth + 1)) for k, x in itertools.islice(v.items(), 1000))
        return name + '{' + ', '.join(k + ': ' + x for k, x in pairs) + '}'
    if isinstance(v, (set, frozenset)):
        items = sorted(sub(v))
        return (name or t.__name__) + '({' + ', '.join(items) + '})'
    if isinstance(v, BaseException):
        return t.__qualname__ + canon(v.args, depth + 1)
    fields = getattr(v, '__dict__', None)
    if isinstance(fields, dict) and not isinstance(v, (type, types.ModuleType, types.FunctionType, types.MethodType)):
        return t.__qualname__ + '(' + ', '.join(k + '=' + canon(x, depth + 1) for k, x in sorted(fields.items())) + ')'
    try:
        text = repr(v)
    except Exception:
        text = '<' + t.__qualname__ + '>'
    return re.sub(r' at 0x[0-9a-fA-F]+', '', text)

def short(v):
    text = canon(v)
    return text if len(text) <= SHORT else text[:SHORT - 1] + '…'

def full(v):
    text = canon(v)
    return text[:FULL]

def load_target(module_name):
    if module_name == '__main__':
        return None, 'its module ran as __main__, which a replay cannot import'
    dotted = rel_path[:-3].replace('/', '.') if rel_path.endswith('.py') else rel_path
    if dotted.endswith('.__init__'):
        dotted = dotted[:-9]
    if dotted != module_name and not dotted.endswith('.' + module_name):
        return None, 'the tests imported it as ' + module_name + ', which does not match its path'
    parts = rel_path.split('/')[:-1]
    depth = module_name.count('.') + (1 if rel_path.endswith('__init__.py') else 0)
    root = os.path.abspath(os.path.join('.', *parts[:max(0, len(parts) - depth)]))
    sys.path.insert(0, root)
    sys.path.insert(1, os.path.abspath('.'))
    try:
        module = importlib.import_module(module_name)
    except BaseException as error:
        return None, 'its module did not load: ' + type(error).__name__ + ': ' + str(error)[:200]
    names = qualname.split('.')
    owner, target = module, None
    try:
        for n in names[:-1]:
            owner = getattr(owner, n)
        target = owner.__dict__[names[-1]] if kind != 'function' else getattr(owner, names[-1])
    except Exception:
        return None, 'the function was not found once its module loaded'
    if isinstance(target, (staticmethod, classmethod)):
        target = target.__func__
    if not callable(target):
        return None, 'the function was not found once its module loaded'
    return target, None

# --- inputs: a call's parameters by name, in the signature's order ---

def bind(sig, params):
    args, kwargs = [], {}
    for p in sig.parameters.values():
        if p.name not in params:
            if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError('missing ' + p.name)
            continue
        value = params[p.name]
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            args.append(value)
        elif p.kind == p.VAR_POSITIONAL:
            args.extend(value)
        elif p.kind == p.KEYWORD_ONLY:
            kwargs[p.name] = value
        else:
            kwargs.update(value)
    return args, kwargs

def show_call(sig, params):
    shown, on = [], None
    for i, p in enumerate(sig.parameters.values()):
        if p.name not in params:
            continue
        value = params[p.name]
        if i == 0 and kind in ('instance', 'class'):
            on = value
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            shown.append(short(value))
        elif p.kind == p.VAR_POSITIONAL:
            shown.extend(short(x) for x in value)
        elif p.kind == p.KEYWORD_ONLY:
            shown.append(p.name + '=' + short(value))
        else:
            shown.extend(str(k) + '=' + short(x) for k, x in value.items())
    call = qualname + '(' + ', '.join(shown) + ')'
    return call + ' on ' + short(on) if kind == 'instance' else call

def observed_inputs(sig):
    seen, inputs, from_failing = set(), [], []
    uncloneable, reason = 0, None
    for source, failing in ((RECORDED[0], True), (RECORDED[1], False)):
        for _module, inner, why in source:
            if len(inputs) >= max_observed:
                break
            try:
                if inner is None:
                    raise ValueError(why or 'not picklable')
                params = _loads(inner)
                params = {p: params[p] for p in sig.parameters if p in params}
                bind(sig, params)
                key = full(params)
            except Exception as error:
                uncloneable += 1
                reason = reason or (why if inner is None else type(error).__name__ + ': ' + str(error))[:200]
                continue
            if key in seen:
                continue
            seen.add(key)
            inputs.append(params)
            from_failing.append(failing)
    return inputs, from_failing, uncloneable, reason

# The generator's part of this script is in pythonNeighbours.ts.
GENERATOR
class _Timeout(BaseException):
    pass

def _alarm(_signum, _frame):
    raise _Timeout()

def call_one(target, sig, packed, deadline):
    if _monotonic() > deadline:
        return {'kind': 'skipped'}
    params = _loads(packed)
    before = full(params)
    args, kwargs = bind(sig, params)
    signal.signal(signal.SIGALRM, _alarm)
    outcome = None
    try:
        signal.setitimer(signal.ITIMER_REAL, per_call)
        value = target(*args, **kwargs)
        if inspect.iscoroutine(value):
            value = asyncio.run(value)
        elif inspect.isgenerator(value):
            value = list(itertools.islice(value, 1000))
        signal.setitimer(signal.ITIMER_REAL, 0)
        after = full(params)
        changed = ' (arguments left as ' + short(params) + ')' if after != before else ''
        outcome = {'kind': 'returned', 'key': full(value) + '|' + after, 'text': short(value) + changed}
    except _Timeout:
        outcome = {'kind': 'timeout'}
    except BaseException as error:
        signal.setitimer(signal.ITIMER_REAL, 0)
        try:
            outcome = {'kind': 'threw', 'name': type(error).__name__, 'message': str(error)[:300]}
        except BaseException:
            outcome = {'kind': 'threw', 'name': type(error).__name__, 'message': '?'}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return outcome

# Read before the module loads: what it does to the files then changes no input.
RECORDED = (frames('failing.b64'), frames('all.b64'))

def main():
    first = next(iter(RECORDED[0] + RECORDED[1]), None)
    if first is None:
        finish({'status': 'noInputs', 'reason': 'the tests never called ' + qualname})
    target, problem = load_target(first[0])
    if problem:
        finish({'problem': problem})
    try:
        sig = inspect.signature(target)
    except Exception:
        finish({'status': 'notReplayable', 'reason': 'its signature cannot be read'})
    observed, from_failing, uncloneable, reason = observed_inputs(sig)
    if not observed:
        if uncloneable:
            finish({'status': 'notReplayable', 'reason': 'its arguments cannot be copied (' + (reason or 'not picklable') + ')'})
        finish({'status': 'noInputs', 'reason': 'the tests never called ' + qualname})
    packed = [_pdumps(o) for o in observed]
    seen = set(full(o) for o in observed)
    generated = generated_inputs(sig, observed, max(0, max_inputs - len(observed)), seen)
    inputs = observed + [g[0] for g in generated]
    packed += [g[1] for g in generated]
    calls = [show_call(sig, p) for p in inputs]
    deadline = _monotonic() + budget
    outcomes = []
    for p in packed:
        try:
            outcomes.append(call_one(target, sig, p, deadline))
        except BaseException:
            outcomes.append({'kind': 'skipped'})
    finish({'observed': len(observed), 'generated': len(generated), 'failingInputs': sum(from_failing), 'uncloneable': uncloneable,
            'reason': reason, 'calls': calls, 'fromFailing': from_failing + [False] * len(generated), 'outcomes': outcomes})

main()
`.replace('GENERATOR\n', () => PYTHON_GENERATOR_SOURCE);
