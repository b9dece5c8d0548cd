// Whether `site build` may go to a resident build process (bin/resident.js, docs/cli.md): not with
// SITE_RESIDENT=off, in CI (CI set, unless SITE_RESIDENT=on), or on Windows. A file of its own, so a
// build that may not use one does not even load the client.
const OFF = new Set(['off', '0', 'false', 'no']);

export function residentWanted(env = process.env) {
  const wanted = (env.SITE_RESIDENT ?? '').toLowerCase();
  if (process.platform === 'win32' || OFF.has(wanted)) return false;
  return !(env.CI && !OFF.has(env.CI.toLowerCase()) && wanted !== 'on');
}
