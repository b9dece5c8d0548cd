/**
 * The run's shared build and servers (tests/setup/): tests that only read the shipped site use
 * these instead of building it again.
 */
import { inject } from 'vitest';

/** The shipped content (SITE_CONTENT or content/) built once per run with `--host netlify`. Read only. */
export const shippedOut = (): string => inject('shippedOut');
/** The repository's sample content built alike (the same folder unless SITE_CONTENT names other content). Read only. */
export const fixtureOut = (): string => inject('fixtureOut');
/** The shared build served as static files (e2e tier). */
export const siteUrl = (): string => inject('siteUrl');
/** The shared build served with its host headers, CSP included (e2e tier). */
export const siteWithHeadersUrl = (): string => inject('siteWithHeadersUrl');
