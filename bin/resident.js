// The client of the resident build process (src/resident/server.ts): `site build` sent to a warm
// process that runs the same build, so a small rebuild does not pay for starting Node, loading the
// CLI and running every function cold (~60 % of a one-post rebuild of 4,000 posts). Plain
// JavaScript loaded before the CLI bundle, so a build it serves never loads that bundle here.
//
// Not used (the build runs in this process, as it always did): with SITE_RESIDENT=off, in CI (CI
// set, unless SITE_RESIDENT=on), on Windows, or when the socket's path would be too long.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** How long the process waits for the next build before it leaves, unless SITE_RESIDENT_IDLE_S says. */
const IDLE_S = 30 * 60;
/** Variables a shell changes from one command to the next: they do not make another process. */
// (SITE_RESIDENT only says whether to use one.)
const VOLATILE = new Set(['_', 'OLDPWD', 'PWD', 'SHLVL', 'COLUMNS', 'LINES', 'SITE_CLI_BUNDLE', 'SITE_RESIDENT']);
const OFF = new Set(['off', '0', 'false', 'no']);

/**
 * The socket of the resident process for this CLI bundle (`bundleDir`), working folder, user,
 * Node and environment, where one may be used; undefined where not. One environment, one process:
 * a build never runs with variables its client did not have.
 */
export function residentSocket(bundleDir, env = process.env) {
  const wanted = (env.SITE_RESIDENT ?? '').toLowerCase();
  if (process.platform === 'win32' || OFF.has(wanted)) return undefined;
  if (env.CI && !OFF.has(env.CI.toLowerCase()) && wanted !== 'on') return undefined;
  const key = createHash('sha256');
  key.update(JSON.stringify([bundleDir, process.cwd(), os.userInfo().uid, process.execPath, process.version, process.execArgv]));
  for (const k of Object.keys(env).sort()) if (!VOLATILE.has(k)) key.update(`\0${k}=${env[k]}`);
  const socket = path.join(bundleDir, `resident-${key.digest('hex').slice(0, 16)}.sock`);
  // A Unix socket's path holds at most 107 bytes (Linux; 103 on macOS).
  return Buffer.byteLength(socket) <= 100 ? socket : undefined;
}

/** The idle time the resident process is started with (ms). */
export function idleMs(env = process.env) {
  const s = Number(env.SITE_RESIDENT_IDLE_S);
  return (Number.isFinite(s) && s > 0 ? s : IDLE_S) * 1000;
}

/**
 * Run this command's build in the resident process at `socket`. Resolves with its exit code, or
 * with `{ start }` when it must run here: `start` when no process answered (start one after).
 */
export function viaResident(socket) {
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    let connected = false;
    let exit;
    let busy = false;
    let stopped;
    let buffered = '';
    const stop = (signal) => {
      stopped = signal;
      if (connected) conn.write(`${JSON.stringify({ signal })}\n`);
      else conn.destroy();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    conn.on('connect', () => {
      connected = true;
      const tty = { out: Boolean(process.stdout.isTTY), err: Boolean(process.stderr.isTTY) };
      conn.write(`${JSON.stringify({ argv: process.argv, tty, columns: process.stdout.columns ?? process.stderr.columns })}\n`);
    });
    conn.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const msg = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        if (msg.out !== undefined) process.stdout.write(msg.out);
        else if (msg.err !== undefined) process.stderr.write(msg.err);
        else if (msg.exit !== undefined) exit = msg.exit;
        else if (msg.busy) busy = true;
      }
    });
    conn.on('error', () => undefined);
    conn.on('close', () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (exit !== undefined) resolve(exit);
      else if (stopped) resolve(stopped === 'SIGINT' ? 130 : 143);
      else if (busy || !connected) resolve({ start: !connected });
      else {
        // It stopped in the middle (killed): what it left is cleaned up by the build run here.
        process.stderr.write('site build: the resident build process stopped before it finished; building in this process.\n');
        resolve({ start: true });
      }
    });
  });
}

/** Start a resident process at `socket` for the next build, detached: it outlives this one. */
export function startResident(socket, siteJs) {
  try {
    spawn(process.execPath, [...process.execArgv, siteJs, '--resident', socket], { detached: true, stdio: 'ignore', env: process.env }).unref();
  } catch {
    // the next build runs in its own process, as this one did
  }
}
