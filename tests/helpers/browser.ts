/** Headless Chromium for end-to-end tests (playwright-core with Debian's chromium). */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Chromium's path, or undefined when it is not installed. */
export function chromePath(): string | undefined {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(p));
}

export const NO_CHROME_MESSAGE = 'Chromium not found: install it with `apt-get install -y chromium` or set CHROME_PATH; browser tests skipped.';

/** Launch headless; playwright gives every launch a fresh temporary profile. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromePath();
  if (!executablePath) throw new Error(NO_CHROME_MESSAGE);
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}
