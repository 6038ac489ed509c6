// Attack: a failed candidate prints a secret it can read (raw, base64, hex) or returns it encoded as the value a test
// compares, so that the repair round's prompt carries it to the model endpoint (issue #25 item 3).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runFix } from '../../../src/core/engine/runFix';
import type { FixRequest } from '../../../src/core/contract/fixRequest';
import { createOpenAiCompatibleProvider } from '../../../src/core/providers/openaiCompatible';
import type { FakeOpenAiServer, RecordedRequest } from '../../unit/helpers/fakeOpenAiServer';
import { inTurn, startFakeOpenAiServer } from '../../unit/helpers/fakeOpenAiServer';
import { fixturesDir } from '../../unit/helpers/paths';
import { makeTempRoot, makeWorkspace, remove } from '../../unit/helpers/workspace';

const fixture = join(fixturesDir, 'openai-ws');
const files = Object.fromEntries(['clamp.js', 'clamp.test.js', 'package.json'].map((name) => [name, readFileSync(join(fixture, name), 'utf8')]));
// Stands in for ~/.pgpass or a token: something the run can read that the model was never shown.
const SECRET = 'db.internal:5432:*:app:Sup3r-Secr3t-Passw0rd';
const workspace = makeWorkspace({ ...files, 'notes.txt': `${SECRET}\n` });
const tempRoot = makeTempRoot();
const line = '  if (value > high) return low;';
const start = files['clamp.js'].indexOf(line);
const read = "require('fs').readFileSync(__dirname + '/notes.txt', 'utf8').trim()";
/** Prints the secret raw, base64 and hex on lines that start the runner's failure section (TAP's `not ok`), and fails. */
const printing = `\`\`\`js\nif (value > high) { const s = ${read}; for (const e of ['utf8', 'base64', 'hex']) console.log('not ok 0 - ' + Buffer.from(s).toString(e)); return low; }\n\`\`\``;
/** Returns the secret base64-encoded: the assertion's actual value carries it. */
const returning = `\`\`\`js\nif (value > high) return Buffer.from(${read}).toString('base64');\n\`\`\``;
const fixed = '```js\nif (value > high) return high;\n```';

let server: FakeOpenAiServer;
before(async () => {
  process.env.VERIFIED_FIX_TMPDIR = tempRoot;
  server = await startFakeOpenAiServer(inTurn({ kind: 'answer', contents: [fixed] }));
});
after(async () => {
  await server.close();
  remove(tempRoot, workspace);
});

function request(testCommand: string): FixRequest {
  return {
    workspace, relativePath: 'clamp.js', start, end: start + line.length, testCommand, samples: 2,
    testTimeoutMs: 300_000, totalTimeoutMs: 600_000, parallel: 2, baselineCheck: true, confirmRuns: 1, strengthCheck: 'off',
    isolation: { linkedFolders: [], excludes: [], allowNetwork: false, memoryMB: 0 },
    provider: createOpenAiCompatibleProvider({ endpoint: server.endpoint, model: 'm', maxConcurrentRequests: 2, requestTimeoutMs: 300_000, maxRetries: 0 }),
    repairRounds: 1,
  };
}

const promptOf = (req: RecordedRequest): string => req.body.messages.map((m: { content: string }) => m.content).join('\n');

function assertNoSecret(prompt: string): void {
  const bytes = Buffer.from(SECRET);
  for (const form of [SECRET, 'Sup3r-Secr3t', bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex'), bytes.toString('hex').slice(0, 24)]) {
    assert.ok(!prompt.includes(form), `the repair prompt carries the secret (${form}):\n${prompt}`);
  }
}

describe('repair rounds send no candidate output', () => {
  for (const command of ['node --test', 'node clamp.test.js']) {
    it(`sends the reason and the failing tests, not what the candidates printed or returned encoded (${command})`, async () => {
      server.requests.length = 0;
      server.script = inTurn({ kind: 'answer', contents: [printing, returning] }, { kind: 'answer', contents: [fixed] });
      const result = await runFix(request(command));
      assert.equal(server.requests.length, 2, 'a repair round was asked');
      assert.ok(result.candidates.some((c) => c.verified), 'the honest fix of round 2 is verified');
      const second = promptOf(server.requests[1]);
      assert.match(second, /Earlier attempts/);
      assertNoSecret(second);
    });
  }
});
