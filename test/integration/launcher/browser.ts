// Starts Debian's Chromium headless through playwright-core (no browser download) with a fresh profile.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { removeOnExit, requireChromium } from './codeServer';

/** A browser with one page; `close()` ends the browser and removes its profile. */
export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/** Flags that work as root in a container without a GPU, and keep Chromium off the network. */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function openBrowser(options: { viewport?: { width: number; height: number } } = {}): Promise<Browser> {
  const executablePath = requireChromium();
  // launchPersistentContext because --user-data-dir in args is rejected, and a fresh profile per run.
  const profile = mkdtempSync(join(tmpdir(), 'vf-chromium-'));
  const removeProfile = removeOnExit(profile);
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: process.env.VERIFIED_FIX_HEADED !== '1',
      args: chromiumArgs,
      viewport: options.viewport ?? { width: 1400, height: 900 },
      timeout: 60_000,
    });
  } catch (error) {
    removeProfile();
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  return {
    context,
    page,
    async close() {
      if (closed) return;
      closed = true;
      await context.close().catch(() => undefined);
      removeProfile();
    },
  };
}
