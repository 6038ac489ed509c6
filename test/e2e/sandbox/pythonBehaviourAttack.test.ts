// Attack on the Python behaviour check: a verified fix that, only when the replay harness imports it, overwrites every
// file of its replay's output folder (the recordings, the harness, the results), replaces json.dumps and os.write,
// and points every descriptor the harness holds at /dev/null. It can only spoil its own replay: the other fixes'
// reports are what they are without it, it is said not to have been replayed (never "same behaviour"), and the
// user's files are untouched.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runCli } from '../../unit/helpers/cli';
import { fingerprint, makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';
import { candidatesFile, PY_NEGATED as NEGATED, pyPagesProject, PY_ROUND_UP as ROUND_UP, PYTEST } from '../../unit/helpers/behaviourFixtures';

const tempRoot = makeTempRoot();
const env = { ...process.env, VERIFIED_FIX_TMPDIR: tempRoot };
const made: string[] = [];
after(() => remove(tempRoot, ...made));

// The Python behaviour suite's page-count project and fixes (test/unit/helpers/behaviourFixtures.ts).
// Passes the tests as NEGATED does; its module-level lines run only under the replay harness, before any call.
const HOSTILE = [
  '    return -(-items // per_page)',
  'import sys as _s, os as _o, json as _j',
  "if _s.argv[0].endswith('replay.py'):",
  '    _d = _s.argv[1]',
  '    for _f in _o.listdir(_d):',
  '        try:',
  "            with open(_o.path.join(_d, _f), 'w') as _h: _h.write('tampered')",
  '        except OSError: pass',
  "    _j.dumps = lambda *a, **k: '{\"outcomes\": []}'",
  "    _null = _o.open('/dev/null', _o.O_WRONLY)",
  "    for _fd in [int(x) for x in _o.listdir('/proc/self/fd')]:",
  '        if _fd > 2 and _fd != _null:',
  '            try: _o.dup2(_null, _fd)',
  '            except OSError: pass',
  '    _o.write = lambda fd, data: len(data)',
].join('\n');

async function behaviour(ws: string, candidates: string[]) {
  const list = candidatesFile(ws, candidates, made, String(candidates.length));
  const args = ['fix', '--workspace', ws, '--file', 'src/pages.py', '--lines', '2-2', '--candidates', list, '--k', '1', '--confirm-runs', '1', '--strength', 'off', '--behaviour', 'quick', '--test', PYTEST, '--json'];
  const r = await runCli(args, { env });
  assert.equal(r.exitCode, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('attack: a verified Python fix that tampers with the behaviour check\'s recordings and replay harness', () => {
  it('spoils only its own replay, is reported as not replayed, and changes nothing else', async () => {
    const ws = makeWorkspace(pyPagesProject(), { git: true });
    made.push(ws);
    const before = fingerprint(ws);
    const honest = await behaviour(ws, [NEGATED, ROUND_UP]);
    const attacked = await behaviour(ws, [NEGATED, ROUND_UP, HOSTILE]);
    assert.deepEqual(attacked.verified, [0, 1, 2], 'the hostile fix passes the tests like NEGATED');
    const report = attacked.behaviour;
    assert.equal(report.status, 'compared', JSON.stringify(report));
    // Recording runs count only the time they could run: a loaded machine gives both requests the same inputs (a
    // recording cut even so says why in the report's reason, shown here).
    assert.equal(honest.behaviour.status, 'compared', JSON.stringify(honest.behaviour));
    assert.equal(report.observed, honest.behaviour.observed, JSON.stringify([report.reason, honest.behaviour.reason]));
    assert.equal(report.generated, honest.behaviour.generated);
    assert.deepEqual(report.fixes.slice(0, 2), honest.behaviour.fixes);
    assert.deepEqual(report.pairs, honest.behaviour.pairs);
    const hostile = report.fixes[2];
    assert.equal(hostile.index, 2);
    assert.match(hostile.problem ?? '', /its replay results could not be read|its replay wrote no results|its replay results hold \d+ outcomes/);
    assert.ok(!report.groups.flat().includes(2), JSON.stringify(report.groups));
    assert.deepEqual(report.groups, honest.behaviour.groups);
    assert.deepEqual(fingerprint(ws), before, 'the user\'s files are untouched');
  });
});
