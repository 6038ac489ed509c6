// The engine's own input generator for Python, part of the replay harness's script: the same rules as neighbours.ts
// (numbers ±1 and boundaries, empty / one-element / reordered / duplicated lists, empty and one-character strings,
// an object's fields nudged, same-type arguments swapped, then random values of the observed types), seeded, and
// in Python so the values keep their Python types (tuples, dicts, the user's classes) and never pass through JSON.

export const PYTHON_GENERATOR_SOURCE = String.raw`# --- the engine's own generator: the same rules as for JavaScript ---

def is_number(v):
    return type(v) in (int, float)

def value_neighbours(v, depth=0):
    t = type(v)
    if t is bool:
        return [not v]
    if t is int:
        return [v - 1, v + 1, 0, 1, -1, -v, v * 2, int(v / 2)]
    if t is float:
        if not math.isfinite(v):
            return [0.0]
        return [v - 1, v + 1, 0.0, float(math.floor(v)), float(math.ceil(v)), -v]
    if t is str:
        return ['', v[:1] or 'a', v[1:], v[:-1], v + (v[-1:] or 'a'), ' ' + v, v.upper()]
    if t in (list, tuple):
        xs = list(v)
        out = [[], xs[:1] or [None], xs[::-1], (xs[:1] + xs) if xs else [], xs[:-1], xs[1:]]
        if len(xs) > 1:
            out.append(xs[1:] + xs[:1])
        if xs and all(is_number(x) for x in xs):
            out += [sorted(xs), xs + xs[-1:]]
        if depth < 1:
            for i in range(min(len(xs), 3)):
                for near in value_neighbours(xs[i], depth + 1)[:2]:
                    out.append(xs[:i] + [near] + xs[i + 1:])
        return [t(x) for x in out]
    if t is dict and depth < 1:
        return [{**v, k: near} for k in list(v)[:5] for near in value_neighbours(v[k], depth + 1)[:3]]
    fields = getattr(v, '__dict__', None)
    if isinstance(fields, dict) and depth < 1 and not isinstance(v, (type, types.ModuleType, types.FunctionType)):
        out = []
        for k in list(fields)[:8]:
            # Its fields are nudged as arguments would be (as a JavaScript method's this).
            for near in value_neighbours(fields[k], depth):
                try:
                    other = copy.copy(v)
                    setattr(other, k, near)
                    out.append(other)
                except Exception:
                    pass
        return out
    return []

def random_like(v, rnd, depth=0):
    t = type(v)
    if t is bool:
        return rnd.random() < 0.5
    if t is int:
        span = max(10, 2 * abs(v))
        return rnd.randint(-span, span)
    if t is float:
        if not math.isfinite(v):
            return v
        span = max(10, 2 * math.ceil(abs(v)))
        return round((rnd.random() * 2 - 1) * span, 2)
    if t is str:
        pool = list(v) or ['a', 'b', ' ']
        return ''.join(pool[rnd.randint(0, len(pool) - 1)] for _ in range(rnd.randint(0, max(5, len(pool) + 2))))
    if t in (list, tuple) and depth < 2:
        if not v:
            return v
        xs = list(v)
        return t(random_like(xs[rnd.randint(0, len(xs) - 1)], rnd, depth + 1) for _ in range(rnd.randint(0, max(5, len(xs) + 2))))
    if t is dict and depth < 2:
        return {k: random_like(x, rnd, depth + 1) for k, x in v.items()}
    fields = getattr(v, '__dict__', None)
    if isinstance(fields, dict) and depth < 1 and not isinstance(v, (type, types.ModuleType, types.FunctionType)):
        try:
            other = copy.copy(v)
            for k in list(fields)[:8]:
                setattr(other, k, random_like(fields[k], rnd, depth + 1))
            return other
        except Exception:
            return v
    return v

def neighbours(params, names, positional):
    out = []
    for name in names:
        for near in value_neighbours(params[name]):
            out.append({**params, name: near})
    for i, a in enumerate(positional):
        for b in positional[i + 1:]:
            if type(params[a]) is type(params[b]) and not isinstance(params[a], (type, types.ModuleType)):
                out.append({**params, a: params[b], b: params[a]})
    return out

def generated_inputs(sig, observed, budget_count, seen):
    names = [p.name for i, p in enumerate(sig.parameters.values()) if p.name in observed[0] and not (i == 0 and kind == 'class')]
    positional = [p.name for i, p in enumerate(sig.parameters.values()) if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and not (i == 0 and kind in ('instance', 'class'))]
    out = []
    def take(params):
        if len(out) >= budget_count:
            return
        try:
            key = full(params)
            if key in seen:
                return
            packed = _pdumps(params)
        except Exception:
            return
        seen.add(key)
        out.append((params, packed))
    lists = [neighbours(o, [n for n in names if n in o], [n for n in positional if n in o]) for o in observed]
    for round_ in range(max((len(l) for l in lists), default=0)):
        if len(out) >= budget_count:
            break
        for l in lists:
            if round_ < len(l):
                take(l[round_])
    rnd = random.Random(28)
    tries = 0
    while len(out) < budget_count and tries < budget_count * 4:
        base = observed[tries % len(observed)]
        take({k: (random_like(v, rnd) if k in names else v) for k, v in base.items()})
        tries += 1
    return out

`;
