// The session commands' defaults, as data: where Export suggests saving and the Reset dialog's buttons.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Export suggests saving: the downloads folder, else the home folder. Never the repository, where the file would
 * show in `git status` and could be committed by accident.
 */
export function exportFolder(home = homedir()): string {
  const downloads = join(home, 'Downloads');
  return existsSync(downloads) ? downloads : home;
}

/** The Reset dialog's buttons, default first (VS Code adds Cancel): Enter picks the safe Export, never Reset. */
export const RESET_CHOICES = ['Export First…', 'Reset'] as const;
