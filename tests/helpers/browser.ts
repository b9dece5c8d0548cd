/** Headless Chromium for end-to-end tests (playwright-core with Debian's chromium). */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Chromium's path, or undefined when it is not installed. */
export function chromePath(): string | undefined {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(p));
}

export const NO_CHROME_MESSAGE = 'Chromium not found: install it with `apt-get install -y chromium` or set CHROME_PATH; browser tests skipped.';

export async function launchBrowser(opts: { javaScript?: boolean } = {}): Promise<Browser> {
  const executablePath = chromePath();
  if (!executablePath) throw new Error(NO_CHROME_MESSAGE);
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'site-chrome-'));
  void opts;
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      `--user-data-dir=${userDataDir}`,
    ].filter((a) => !a.startsWith('--user-data-dir')), // playwright manages its own profile dir
  });
}
