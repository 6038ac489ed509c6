// A folder copied as it is: the one way the engine copies a runner's cache or a bytecode layer.
import { execa } from 'execa';
import { toolPath } from './toolPath';

/**
 * Copies the folder `from` to `to` (which must not exist) with `cp -a`: files as they were written, links copied as
 * links (never followed out of the folder). False where the copy failed; `to` may then hold part of it.
 */
export function copyTree(from: string, to: string): Promise<boolean> {
  return execa(toolPath('cp'), ['-a', '--', from, to]).then(() => true, () => false);
}
