// The client of the resident build process (src/resident/server.ts): `site build` sent to a warm
// process that runs the same build, so a small rebuild does not pay for starting Node, loading the
// CLI and running every function cold (~40 % of a one-post rebuild of 4,000 posts). Plain
// JavaScript loaded before the CLI bundle, so a build it serves never loads that bundle here.
//
// Not used (the build runs in this process, as it always did): with SITE_RESIDENT=off, in CI (CI
// set, unless SITE_RESIDENT=on), on Windows, or where no private folder for its socket can be made.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { residentWanted } from './resident-wanted.js';

/** How long the process waits for the next build before it leaves, unless SITE_RESIDENT_IDLE_S says. */
const IDLE_S = 30 * 60;
/** The longest idle time (a week): a timer holds at most 2^31 - 1 ms. */
const MAX_IDLE_S = 7 * 24 * 3600;
/** Variables a shell changes from one command to the next: they do not make another process. */
// (SITE_RESIDENT and SITE_RESIDENT_ACCEPT_MS are the client's own.)
const VOLATILE = new Set(['_', 'OLDPWD', 'PWD', 'SHLVL', 'COLUMNS', 'LINES', 'SITE_CLI_BUNDLE', 'SITE_RESIDENT', 'SITE_RESIDENT_ACCEPT_MS']);
/** Variables that may change from one build to the next: sent with each build and set for it, not part of the process's name. */
export const PER_BUILD = ['SOURCE_DATE_EPOCH'];
/** How long the client waits for the resident process to take its build (it answers at once when it can). */
const ACCEPT_WAIT_MS = Number(process.env.SITE_RESIDENT_ACCEPT_MS) || 5000;
/** How long a stopped client waits for the resident process to stop its build before it leaves anyway (no longer than it waits for it to take one). */
const STOP_WAIT_MS = Math.min(3000, ACCEPT_WAIT_MS);

/**
 * This user's private folder for the sockets: `$XDG_RUNTIME_DIR/site`, else `<tmp>/site-<uid>`,
 * made with mode 0700; undefined when it is not a folder of this user's that no one else may enter.
 * (A socket's path holds at most 107 bytes: inside the project's folder it often could not.)
 */
function socketFolder(env) {
  const uid = process.getuid();
  const runtime = env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : undefined;
  const dir = runtime ? path.join(runtime, 'site') : path.join(os.tmpdir(), `site-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if (err.code !== 'EEXIST') return undefined;
  }
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === uid && (st.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The socket of the resident process for this CLI bundle (`bundleDir`), working folder, user,
 * Node, process settings and environment, where one may be used; undefined where not. One
 * environment, one process: a build never runs with variables or a umask its client did not have.
 *
 * Its name is `<family>-<key>.sock`, the family being the working folder and the user: a new
 * process sends the others of its family away (src/resident/server.ts), so there is at most one
 * per project folder, whatever changed (the generator, a variable set per build by a script).
 * (Two terminals with different environments building one project take turns: correct, slower.)
 *
 * Undefined too while `<socket>.off` says the last one left for good reason (templates that
 * require packages it must not keep: src/resident/modules.ts), for as long as one would have
 * waited; and when the path would be too long for a socket (107 bytes on Linux, 103 on macOS).
 */
export function residentSocket(bundleDir, env = process.env) {
  if (!residentWanted(env)) return undefined;
  const dir = socketFolder(env);
  if (!dir) return undefined;
  const umask = process.umask(0o022);
  process.umask(umask);
  const f = createHash('sha256').update(JSON.stringify([process.cwd(), process.getuid()])).digest('hex').slice(0, 8);
  const key = createHash('sha256');
  key.update(JSON.stringify([f, bundleDir, process.getgroups(), umask, os.getPriority(), process.execPath, process.version, process.execArgv]));
  for (const k of Object.keys(env).sort()) if (!VOLATILE.has(k) && !PER_BUILD.includes(k)) key.update(`\0${k}=${env[k]}`);
  const socket = path.join(dir, `${f}-${key.digest('hex').slice(0, 12)}.sock`);
  if (Buffer.byteLength(socket) > 100) return undefined;
  const off = statSync(`${socket}.off`, { throwIfNoEntry: false });
  return off && Date.now() - off.mtimeMs < idleMs(env) ? undefined : socket;
}

/** The idle time the resident process is started with (ms). */
export function idleMs(env = process.env) {
  const s = Number(env.SITE_RESIDENT_IDLE_S);
  return Math.min(Number.isFinite(s) && s > 0 ? s : IDLE_S, MAX_IDLE_S) * 1000;
}

/**
 * Run this command's build in the resident process at `socket`. Resolves with its exit code, or
 * with `{ start }` when it must run here: `start` when no process answered (start one after).
 */
export function viaResident(socket) {
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    const decoder = new StringDecoder('utf8');
    let connected = false;
    let exit;
    let busy = false;
    let retry = false;
    /** It took the build: one that closes before is leaving (idle, sent away), not failing. */
    let received = false;
    let stopped;
    let buffered = '';
    // Ctrl-C or SIGTERM: passed on, and the build stops there as a build of its own would. A
    // resident process that does not answer (stopped, stuck) is left after STOP_WAIT_MS, or at once
    // on a second signal.
    const leave = () => {
      process.stderr.write(`site build: the resident build process does not answer; stopped waiting for it.\n`);
      conn.destroy();
    };
    const stop = (signal) => {
      if (stopped || !connected) {
        stopped ??= signal;
        return connected ? leave() : conn.destroy();
      }
      stopped = signal;
      // (A build stopped before it was taken is not built here either.)
      clearTimeout(unanswered);
      conn.write(`${JSON.stringify({ signal })}\n`);
      setTimeout(leave, STOP_WAIT_MS).unref();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // A process that takes no build (stopped before it accepted): this one builds it instead.
    let unanswered;
    conn.on('connect', () => {
      connected = true;
      unanswered = setTimeout(() => {
        process.stderr.write('site build: the resident build process does not answer; building in this process.\n');
        conn.destroy();
      }, ACCEPT_WAIT_MS);
      const tty = { out: Boolean(process.stdout.isTTY), err: Boolean(process.stderr.isTTY) };
      // (null for an unset one: the resident process unsets it for this build.)
      const env = Object.fromEntries(PER_BUILD.map((k) => [k, process.env[k] ?? null]));
      conn.write(`${JSON.stringify({ argv: process.argv, env, tty, columns: process.stdout.columns ?? process.stderr.columns })}\n`);
    });
    let scanned = 0;
    conn.on('data', (chunk) => {
      // (A character may be split between two chunks: decoded across them. A long line is
      // searched for its end once, not again with each chunk.)
      buffered += decoder.write(chunk);
      for (let nl = buffered.indexOf('\n', scanned); nl >= 0; nl = buffered.indexOf('\n')) {
        const msg = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        scanned = 0;
        if (msg.out !== undefined) process.stdout.write(msg.out);
        else if (msg.err !== undefined) process.stderr.write(msg.err);
        else if (msg.exit !== undefined) exit = msg.exit;
        else if (msg.busy) busy = true;
        else if (msg.retry) retry = true;
        else if (msg.accepted) {
          received = true;
          clearTimeout(unanswered);
        }
      }
      scanned = buffered.length;
    });
    conn.on('error', () => undefined);
    conn.on('close', () => {
      clearTimeout(unanswered);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (exit !== undefined) resolve(exit);
      else if (stopped) resolve(stopped === 'SIGINT' ? 130 : 143);
      else if (busy || !connected || retry || !received) resolve({ start: !connected || retry || !received });
      else {
        // It stopped in the middle (killed): what it left is cleaned up by the build run here.
        process.stderr.write('site build: the resident build process stopped before it finished; building in this process.\n');
        resolve({ start: true });
      }
    });
  });
}

/** Start a resident process at `socket` running CLI bundle `bundleDir` for the next build, detached: it outlives this one. */
export function startResident(socket, siteJs, bundleDir) {
  try {
    // (Loaded here: a build the resident process serves has no use for it, ~3 ms.)
    const { spawn } = createRequire(import.meta.url)('node:child_process');
    // A young generation of 32 MB a half (V8's default is 16): a one-post rebuild of 4,000 posts
    // keeps its route table, stamps and posts alive to its end, and the scavenger copied them
    // 6-7 times a build (~30 ms); with 32 MB, 3 times (~22 ms), for ~45-65 MB more memory
    // (2026-11-27, docs/benchmarks.md). Not over the client's own size, on its command line or in
    // NODE_OPTIONS (which Node applies before the command line: ours would win there).
    const own = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('--max-semi-space-size'));
    spawn(process.execPath, [...(own ? [] : ['--max-semi-space-size=32']), ...process.execArgv, siteJs, '--resident', socket, bundleDir], { detached: true, stdio: 'ignore', env: process.env }).unref();
  } catch {
    // the next build runs in its own process, as this one did
  }
}
