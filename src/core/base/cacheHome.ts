// Where the tool keeps what outlives a request: the XDG cache home.
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** `${XDG_CACHE_HOME:-~/.cache}`; a relative XDG_CACHE_HOME is ignored, as the XDG spec says. */
export function cacheHomePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
}
