// Finds the workspace's test command when none is configured.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../base/errors';

function hasPytestConfig(workspace: string): boolean {
  if (existsSync(join(workspace, 'pytest.ini')) || existsSync(join(workspace, 'conftest.py'))) return true;
  for (const [file, marker] of [['pyproject.toml', '[tool.pytest'], ['setup.cfg', '[tool:pytest]'], ['tox.ini', '[pytest]']]) {
    try {
      if (readFileSync(join(workspace, file), 'utf8').includes(marker)) return true;
    } catch {
      // absent: try the next
    }
  }
  return false;
}

function hasPythonTests(workspace: string): boolean {
  try {
    return readdirSync(join(workspace, 'tests')).some((name) => name.endsWith('.py'));
  } catch {
    return false;
  }
}

/**
 * package.json scripts.test → `npm test`; pytest configuration or tests/*.py → `python3 -m pytest`;
 * Cargo.toml → `cargo test`; go.mod → `go test ./...`. Throws a UserError asking for one otherwise.
 */
export function detectTestCommand(workspace: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    const test = pkg.scripts?.test;
    if (typeof test === 'string' && !/no test specified/.test(test)) return 'npm test';
  } catch {
    // no package.json, or not JSON: not an npm project
  }
  if (hasPytestConfig(workspace) || hasPythonTests(workspace)) return 'python3 -m pytest';
  if (existsSync(join(workspace, 'Cargo.toml'))) return 'cargo test';
  if (existsSync(join(workspace, 'go.mod'))) return 'go test ./...';
  throw new UserError(
    'No test command found: there is no package.json "test" script, pytest configuration or tests/ folder, Cargo.toml or go.mod. ' +
      'Set one with the verifiedFix.testCommand setting (or --test "CMD" on the command line).',
  );
}
