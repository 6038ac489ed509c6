// SuiteCensus: without a baseline, each run's per-file counts against the most any run of the request ran.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mochaAdapter } from '../../src/core/testResults/mocha';
import { nodeAdapter } from '../../src/core/testResults/node';
import { tapAdapter } from '../../src/core/testResults/tap';
import type { RunnerAdapter, TestResult } from '../../src/core/testResults/types';
import { SuiteCensus } from '../../src/core/verification/suiteCensus';
import type { Verdict } from '../../src/core/contract/fixRequest';

/** An adapter of runner `base`'s name whose "report" is the results themselves, as JSON. */
const asJson = (base: RunnerAdapter): RunnerAdapter => ({ ...base, parse: (report) => (report ? (JSON.parse(report) as TestResult[]) : []) });
const verdict = (status: 'pass' | 'fail'): Verdict => ({ status, exitCode: status === 'pass' ? 0 : 1, durationMs: 5, output: '', stdout: '', stderr: '' });
const run = (status: 'pass' | 'fail', results: readonly TestResult[]) => ({ verdict: verdict(status), report: JSON.stringify(results) });
const three = (outcome: TestResult['outcome']): TestResult[] => ['a', 'b', 'c'].map((name) => ({ id: `t/n.test.js > ${name}`, outcome }));

describe('SuiteCensus', () => {
  it('passes a run as large as every other, and fails one with fewer tests in a file than another run ran', () => {
    const census = new SuiteCensus(asJson(mochaAdapter));
    assert.equal(census.judge(run('fail', three('failed')), 'c0').verdict.status, 'fail');
    assert.equal(census.judge(run('pass', three('passed')), 'c1').verdict.status, 'pass');
    const skipping = [{ id: 't/n.test.js > a', outcome: 'passed' }, ...three('skipped').slice(1)] as TestResult[];
    const judged = census.judge(run('pass', skipping), 'c2').verdict;
    assert.equal(judged.cause, 'fewerTests');
    assert.match(judged.reason ?? '', /fewer tests ran in t\/n\.test\.js than in another run of this request \(1 of 3\)/);
  });

  it('judges a pass again once a larger run came in after it (shortfall)', () => {
    const census = new SuiteCensus(asJson(mochaAdapter));
    assert.equal(census.judge(run('pass', three('passed').slice(0, 1)), 'c0').verdict.status, 'pass');
    assert.equal(census.judge(run('pass', three('passed').slice(0, 1)), 'c0r2').verdict.status, 'pass');
    assert.equal(census.shortfall(0), undefined);
    census.judge(run('fail', three('failed')), 's1v0');
    assert.match(census.shortfall(0) ?? '', /\(1 of 3\)/);
    assert.equal(census.shortfall(1), undefined, 'a strength variant\'s run is nobody\'s pass');
  });

  it('fails a run whose report lists no test, or only skipped ones', () => {
    for (const results of [[], three('skipped')]) {
      const judged = new SuiteCensus(asJson(mochaAdapter)).judge(run('pass', results), 'c0').verdict;
      assert.equal(judged.cause, 'noTests', JSON.stringify(results));
    }
  });

  it('counts a file node names after its own path as one without a test (an exit before its tests); other runners\' file results as tests', () => {
    const files = [{ id: 't/n.test.js', outcome: 'passed' }, { id: 't/m.test.js > z', outcome: 'passed' }] as TestResult[];
    const judged = new SuiteCensus(asJson(nodeAdapter)).judge(run('pass', files), 'c0').verdict;
    assert.match(judged.reason ?? '', /^t\/n\.test\.js ran no test of its own/);
    const tapFiles = [{ id: 't/n.test.js', outcome: 'passed' }] as TestResult[];
    assert.equal(new SuiteCensus(asJson(tapAdapter)).judge(run('pass', tapFiles), 'c0').verdict.status, 'pass');
  });
});
