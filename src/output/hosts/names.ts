/**
 * The host targets of `site build --host` and `deploy.host`. A leaf module (it imports nothing):
 * the content schema and the config name the hosts without pulling in the host writers.
 */
export const HOSTS = ['static', 'cloudflare', 'netlify', 'vercel', 'nginx', 's3'] as const;
export type HostName = (typeof HOSTS)[number];
