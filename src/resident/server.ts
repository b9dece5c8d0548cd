/**
 * The resident build process: `site build` run again and again in one warm process.
 *
 * A one-shot `site build` spends more than a third of a small rebuild starting up: Node itself
 * (~65 ms here), the CLI bundle, and every function of the build running cold for the first time.
 * The build's own logic does not need a resident process: it vouches for what changed by stamping
 * every input and output file, as it does in a fresh process (output/carry.ts). So this process
 * keeps nothing from one build to the next but its loaded, compiled code (and the build record it
 * wrote, read again when the file changed, and a thread for file work: output/io-thread.ts): each
 * request runs the very `main()` a one-shot build runs, with the client's arguments, and the
 * client prints what it printed. Correctness is the
 * one-shot build's; only its start-up is saved.
 *
 * bin/resident.js is the client: it finds this process by a socket named after the working
 * folder, the user, the environment and the CLI bundle, and starts it after a build that found
 * none. One request at a time; each holds the output folder's lock as any build does. The process
 * leaves after `idleMs` without a request, on SIGTERM between builds, when a newer process of its
 * family sends it away, when its socket is taken away, and after a request that failed in a way no
 * build reports (its state is then unknown). What it does with the packages the templates load:
 * src/resident/modules.ts.
 *
 * Protocol: one JSON object per line. Client: `{ argv, env, tty: { out, err }, columns }`, then
 * `{ signal }` if it is stopped; a newer process: `{ leave: true }`. Server: `{ accepted }`, then
 * `{ out }` and `{ err }` chunks, then `{ exit }`; or `{ busy }` (building another) or `{ retry }`
 * (it cannot serve this build): the client builds in its own process.
 */
import net from 'node:net';
import { chmodSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

interface Request {
  argv: string[];
  /** Variables set for this build alone (bin/resident.js PER_BUILD): absent ones are unset. */
  env?: Record<string, string | undefined>;
  tty?: { out?: boolean; err?: boolean };
  columns?: number;
}

/**
 * Runs one build and resolves with its exit code; 'retire': this process must not serve it (its
 * client builds it, then starts another); `{ exit }`: served, and this process leaves after it.
 */
type Main = (argv: string[]) => Promise<number | 'retire' | { exit: number }>;

/** What a request sees as its standard streams: the client's, through the socket. */
function redirect(stream: NodeJS.WriteStream, send: (text: string) => void, tty: boolean | undefined, columns: number | undefined): () => void {
  const saved = { write: stream.write, isTTY: stream.isTTY, columns: stream.columns };
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    send(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof stream.write;
  stream.isTTY = Boolean(tty);
  stream.columns = columns as number;
  return () => Object.assign(stream, saved);
}

/** Serve builds on `socket` until idle for `idleMs`. Resolves when the process should exit. */
export function serveResident(socket: string, main: Main, idleMs: number, served?: () => void): Promise<void> {
  return new Promise((resolve) => {
    let busy = false;
    /** Sent away by a newer process of its family (bin/resident.js): it leaves once its build is done. */
    let retired = false;
    let idle: NodeJS.Timeout | undefined;
    const ino = () => statSync(socket, { throwIfNoEntry: false })?.ino;
    let ours: number | undefined;
    const leave = () => {
      clearTimeout(idle);
      server.close();
      // Only our own socket: a newer process may have taken the name.
      try {
        if (ours !== undefined && ino() === ours) unlinkSync(socket);
      } catch {
        // gone already
      }
      resolve();
    };
    const wait = () => {
      clearTimeout(idle);
      idle = setTimeout(leave, idleMs);
    };
    const server = net.createServer((conn) => {
      let buffered = '';
      const decoder = new StringDecoder('utf8');
      let running = false;
      const send = (msg: object) => {
        if (!conn.destroyed) conn.write(`${JSON.stringify(msg)}\n`);
      };
      conn.on('data', (chunk) => {
        buffered += decoder.write(chunk);
        for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          let msg: Request & { signal?: NodeJS.Signals; leave?: boolean };
          try {
            msg = JSON.parse(line) as typeof msg;
          } catch {
            conn.destroy();
            return;
          }
          // The client was stopped (Ctrl-C): this process stops as a one-shot build would, dropping
          // the unfinished build (src/cli.ts), and the next build starts a new one.
          if (msg.signal === 'SIGINT' || msg.signal === 'SIGTERM') {
            if (running) process.kill(process.pid, msg.signal);
            continue;
          }
          if (msg.leave) {
            retired = true;
            conn.end();
            if (!busy) leave();
            return;
          }
          if (running || busy || !Array.isArray(msg.argv)) {
            // One build at a time: the client builds in its own process instead.
            send({ busy: true });
            conn.end();
            return;
          }
          running = busy = true;
          clearTimeout(idle);
          void run(msg);
        }
      });
      // A client gone in the middle of its build (killed): stop as its Ctrl-C would.
      conn.on('close', () => {
        if (running) process.kill(process.pid, 'SIGTERM');
      });
      conn.on('error', () => undefined);
      const run = async (req: Request) => {
        // Taken: from now on, a close without an exit code is a failure (the client says so).
        send({ accepted: true });
        const restore = [
          redirect(process.stdout, (out) => send({ out }), req.tty?.out, req.columns),
          redirect(process.stderr, (err) => send({ err }), req.tty?.err, req.columns),
        ];
        let exit: number | 'retire' | { exit: number } = 1;
        let broken = false;
        const saved = Object.fromEntries(Object.keys(req.env ?? {}).map((k) => [k, process.env[k]]));
        const setEnv = (vars: Record<string, string | undefined>) => {
          for (const [k, v] of Object.entries(vars)) if (typeof v === 'string') process.env[k] = v;
          else delete process.env[k];
        };
        setEnv(req.env ?? {});
        try {
          exit = await main(req.argv);
        } catch (err) {
          // A failure no build reports as one: said as the one-shot build says it, then this
          // process leaves (what it holds may be half-changed).
          process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
          broken = true;
        } finally {
          for (const r of restore) r();
          setEnv(saved);
        }
        running = busy = false;
        if (exit === 'retire') {
          // Gone before the client builds and starts the next one on the same socket.
          leave();
          send({ retry: true });
          conn.end();
          return;
        }
        const last = typeof exit === 'object';
        send({ exit: typeof exit === 'object' ? exit.exit : exit });
        conn.end();
        served?.();
        served = undefined;
        if (broken || last || retired || ino() !== ours) leave();
        else wait();
      };
    });
    // Only this user may connect: a build runs with this process's rights, on the paths it is sent.
    const listen = () => {
      const umask = process.umask(0o077);
      server.listen(socket, () => {
        process.umask(umask);
        try {
          chmodSync(socket, 0o600);
        } catch {
          return leave();
        }
        ours = ino();
        wait();
        retireFamily(socket);
      });
    };
    let retried = false;
    server.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE' || retried) return leave();
      // A socket file left by a process that was killed: taken over. One that answers is another
      // resident process's (two clients started one each): this one leaves.
      retried = true;
      const probe = net.connect(socket);
      probe.on('connect', () => {
        probe.destroy();
        leave();
      });
      probe.on('error', () => {
        try {
          unlinkSync(socket);
        } catch {
          // taken away meanwhile
        }
        listen();
      });
    });
    // Stopped (pkill, a shutdown) between builds: it leaves as when idle, taking its socket away.
    // In the middle of a build, the build's own handlers stop it first (src/cli.ts).
    const stop = () => leave();
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    process.on('SIGHUP', stop);
    removeStale(socket);
    listen();
  });
}

/** How bin/resident.js names a socket: `<family>-<key>.sock`. */
const SOCKET_NAME = /^[0-9a-f]{8}-[0-9a-f]{12}\.sock$/;

/**
 * The other processes of this one's family (the same folder, user and environment but another CLI
 * version or build date) are sent away: the client will not reach them again.
 */
function retireFamily(socket: string): void {
  const dir = path.dirname(socket);
  const family = path.basename(socket).split('-')[0]!;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => SOCKET_NAME.test(n) && n.startsWith(`${family}-`) && n !== path.basename(socket));
  } catch {
    return;
  }
  for (const name of names) {
    const conn = net.connect(path.join(dir, name));
    conn.on('connect', () => conn.end(`${JSON.stringify({ leave: true })}\n`));
    conn.on('error', () => undefined);
  }
}

/** Sockets of resident processes that were killed, beside `socket` (none answers on them): removed. */
function removeStale(socket: string): void {
  const dir = path.dirname(socket);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => SOCKET_NAME.test(n) && n !== path.basename(socket));
  } catch {
    return;
  }
  for (const name of names) {
    const probe = net.connect(path.join(dir, name));
    probe.on('connect', () => probe.destroy());
    probe.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNREFUSED') return;
      try {
        unlinkSync(path.join(dir, name));
      } catch {
        // taken away meanwhile
      }
    });
  }
}
