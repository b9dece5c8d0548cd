/**
 * Global setup of the e2e tier: one Chromium for the whole run (test files connect to it over its
 * WebSocket instead of each launching one, tests/helpers/browser.ts) and the shared build of the
 * shipped content served twice: as plain static files and with the host's headers applied (CSP and
 * the rest, as `site serve` does). Runs after shared-site.ts, whose build it serves.
 */
import type { TestProject } from 'vitest/node';
import { chromium, type BrowserServer } from 'playwright-core';
import { BROWSER_ARGS, chromePath } from '../helpers/browser.ts';
import { startStaticServer } from '../../src/server/static.ts';
import { startDevServer } from '../../src/server/dev.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's WebSocket endpoint; empty when Chromium is not installed. */
    browserWs: string;
    /** The shared build (`shippedOut`) served as static files. */
    siteUrl: string;
    /** The shared build served with its host headers (Content-Security-Policy included). */
    siteWithHeadersUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const out = project.getProvidedContext().shippedOut;
  const executablePath = chromePath();
  const [browser, plain, headers] = await Promise.all([
    executablePath ? chromium.launchServer({ executablePath, headless: true, args: BROWSER_ARGS }) : Promise.resolve(undefined as BrowserServer | undefined),
    startStaticServer({ root: out }),
    startDevServer({ root: out, port: 0 }),
  ]);
  project.provide('browserWs', browser?.wsEndpoint() ?? '');
  project.provide('siteUrl', plain.url);
  project.provide('siteWithHeadersUrl', headers.url);
  return async () => {
    plain.server.close();
    await Promise.all([headers.close(), browser?.close()]);
  };
}
