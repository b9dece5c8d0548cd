/**
 * The README and the guides in docs/ against the project: every relative link (and #anchor) leads
 * somewhere, every `site` command and option they mention exists in that command's --help, the CLI
 * reference lists exactly the options of each command with their defaults, and every `npm run`
 * script exists. Offline and without a build: `node bin/site.js <command> --help` is spawned once
 * per command (fast: help needs no content).
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { NODE_VERSION } from '../../src/output/hosts/deploy.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const GUIDES = ['operator.md', 'cli.md', 'deploy.md', 'architecture.md', 'benchmarks.md'];
const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
const scripts = pkg.scripts;

/** A markdown file split into prose (code removed) and code (fenced lines and inline spans). */
function parse(text: string): { prose: string; code: string[]; headings: string[] } {
  const code: string[] = [];
  const headings: string[] = [];
  const proseLines: string[] = [];
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence) {
      code.push(line);
      continue;
    }
    if (/^#{1,6}\s/.test(line)) headings.push(line.replace(/^#+\s+/, '').trim());
    // `\|` is a pipe inside a table cell.
    const unescaped = line.replace(/\\\|/g, '|');
    for (const m of unescaped.matchAll(/`([^`]+)`/g)) code.push(m[1]!);
    proseLines.push(unescaped.replace(/`[^`]+`/g, '``'));
  }
  return { prose: proseLines.join('\n'), code, headings };
}

/** GitHub's anchors for a file's headings (duplicates numbered, as GitHub does). */
function anchors(headings: string[]): Set<string> {
  const slugger = new GithubSlugger();
  return new Set(headings.map((h) => slugger.slug(h.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'))));
}

const parsed = new Map(DOCS.map((f) => [f, parse(read(f))]));

// ------------------------------------------------------------------ the CLI's own help, cached
interface Help {
  text: string;
  /** Every flag the command takes (`-c`, `--content`…), --help included. */
  flags: Set<string>;
  /** Option lines: the flags of one option and its (unwrapped) description. */
  options: { flags: string[]; description: string }[];
  commands: string[];
}
const helps = new Map<string, Help>();
function help(command: string[]): Help {
  const key = command.join(' ');
  const cached = helps.get(key);
  if (cached) return cached;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/site.js'), ...command, '--help'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, `site ${key} --help\n${r.stderr}`).toBe(0);
  const section = (name: string) => (r.stdout.split(`\n${name}:\n`)[1] ?? '').split('\n\n')[0]!;
  const options: Help['options'] = [];
  for (const line of section('Options').split('\n')) {
    const m = /^ {2}(-\S.*?)(?: {2,}(.*))?$/.exec(line);
    if (m) options.push({ flags: [...m[1]!.matchAll(/--?[A-Za-z][\w-]*/g)].map((f) => f[0]), description: m[2] ?? '' });
    else if (options.length) options.at(-1)!.description += ` ${line.trim()}`;
  }
  const commands = [...section('Commands').matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!);
  const result = { text: r.stdout, flags: new Set(options.flatMap((o) => o.flags)), options, commands };
  helps.set(key, result);
  return result;
}

/** A `site …` invocation found in the docs: the command words and the flags after them. */
interface Invocation {
  file: string;
  text: string;
  command: string[];
  flags: string[];
}

/** `site`, `npx site`, `node bin/site.js` and `npm run <script> -- …` for scripts that run the CLI. */
function invocations(file: string, code: string[]): Invocation[] {
  const found: Invocation[] = [];
  for (const snippet of code) {
    // Commands joined by &&, ;, || or | are separate; a # starts a shell comment.
    for (const raw of snippet.replace(/\s#\s.*$/, '').split(/&&|\|\||;|\|/)) {
      const segment = raw.trim().replace(/^(?:[A-Z_]+=\S*\s+)+/, '');
      let args: string[] | undefined;
      const direct = /^(?:npx\s+site|node\s+bin\/site\.js|site)(?:\s+(.*))?$/.exec(segment);
      if (direct) args = (direct[1] ?? '').split(/\s+/).filter(Boolean);
      const npm = /^npm\s+run\s+([\w:-]+)(?:\s+--\s+(.*))?$/.exec(segment);
      const cli = npm && /^node bin\/site\.js ([a-z]+)$/.exec(scripts[npm[1]!] ?? '');
      if (cli) args = [cli[1]!, ...(npm![2] ?? '').split(/\s+/).filter(Boolean)];
      if (!args) continue;
      const command: string[] = [];
      // The command (and a subcommand of `new`) comes first; `<command>`, `[options]` and `…` are placeholders.
      const word = (a: string | undefined) => a !== undefined && /^[a-z][\w-]*$/.test(a);
      if (word(args[0])) {
        command.push(args[0]!);
        if (args[0] === 'new' && word(args[1])) command.push(args[1]!);
      }
      // Usage lines bracket optional flags: `[--langs en,es]`.
      const flags = args.map((a) => a.replace(/^[[(]+|[\])]+$/g, '')).filter((w) => /^--?[A-Za-z][\w-]*(?:=.*)?$/.test(w)).map((w) => w.replace(/=.*$/, ''));
      found.push({ file, text: segment, command, flags });
    }
  }
  return found;
}

describe('[R-GEN-3] README and docs/', () => {
  it('the README stays short, starts with the two set-up commands and links every guide', () => {
    const readme = read('README.md');
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(8 * 1024);
    // CI (.ci/run) runs the README's test command: the first code block names it.
    const first = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(first.split('\n')[0]).toMatch(/^npm ci && npm run build\s/);
    expect(first.split('\n')[1]).toMatch(/^npm test\s/);
    for (const guide of GUIDES) {
      expect(existsSync(path.join(ROOT, 'docs', guide)), `docs/${guide}`).toBe(true);
      expect(readme, `README links docs/${guide}`).toContain(`](docs/${guide})`);
    }
  });

  it('every relative link points to an existing file, and every #anchor to a heading there', () => {
    const broken: string[] = [];
    for (const [file, { prose }] of parsed) {
      for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<(?:img|a)\s[^>]*(?:src|href)="([^"]+)"/g)) {
        const target = m[1] ?? m[2]!;
        if (/^[a-z][a-z\d+.-]*:/i.test(target)) continue; // https:, mailto:
        const [rel, anchor] = target.split('#') as [string, string | undefined];
        const abs = rel ? path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(rel)) : path.join(ROOT, file);
        if (!existsSync(abs)) {
          broken.push(`${file}: ${target} (no such file)`);
          continue;
        }
        if (anchor === undefined || !abs.endsWith('.md') || statSync(abs).isDirectory()) continue;
        const there = path.relative(ROOT, abs);
        const heads = parsed.get(there)?.headings ?? parse(readFileSync(abs, 'utf8')).headings;
        if (!anchors(heads).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${there})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every `site` command and option mentioned exists in that command\'s --help', () => {
    const top = help([]);
    const wrong: string[] = [];
    const all = [...parsed].flatMap(([file, { code }]) => invocations(file, code));
    expect(all.length).toBeGreaterThan(30); // the extraction itself works
    for (const inv of all) {
      const [cmd, sub] = inv.command;
      if (cmd === 'help') {
        for (const flag of inv.flags) if (!top.flags.has(flag)) wrong.push(`${inv.file}: ${inv.text} (site has no ${flag})`);
        continue;
      }
      if (cmd && !top.commands.includes(cmd)) {
        wrong.push(`${inv.file}: ${inv.text} (no command "${cmd}")`);
        continue;
      }
      if (sub && !help(['new']).commands.includes(sub)) {
        wrong.push(`${inv.file}: ${inv.text} (no command "new ${sub}")`);
        continue;
      }
      const known = help(inv.command).flags;
      for (const flag of inv.flags) if (!known.has(flag)) wrong.push(`${inv.file}: ${inv.text} (site ${inv.command.join(' ')} has no ${flag})`);
    }
    expect(wrong).toEqual([]);
  });

  it('the CLI reference lists exactly each command\'s options, with their defaults', () => {
    const cli = read('docs/cli.md');
    const sections = new Map<string, string>();
    const heads = [...cli.matchAll(/^#{2,3} (.+)$/gm)];
    heads.forEach((h, i) => {
      const m = /^site ([a-z]+(?: [a-z]+)?)$/.exec(h[1]!.trim());
      if (m) sections.set(m[1]!, cli.slice(h.index! + h[0].length, heads[i + 1]?.index ?? cli.length));
    });
    const commands = help([]).commands.filter((c) => c !== 'help');
    const all = [...commands.map((c) => [c]), ...help(['new']).commands.filter((c) => c !== 'help').map((c) => ['new', c])];
    const problems: string[] = [];
    for (const command of all) {
      const name = command.join(' ');
      const section = sections.get(name);
      if (section === undefined) {
        problems.push(`no "## site ${name}" section`);
        continue;
      }
      const rows = section.split('\n').filter((l) => l.startsWith('| `-'));
      const listed = new Set(rows.flatMap((r) => [...r.split('|')[1]!.matchAll(/--?[A-Za-z][\w-]*/g)].map((f) => f[0])));
      const { options } = help(command);
      for (const o of options) {
        if (o.flags.includes('--help')) continue;
        const row = rows.find((r) => r.split('|')[1]!.includes(o.flags.at(-1)!));
        if (!row) {
          problems.push(`site ${name}: ${o.flags.join(', ')} is not listed`);
          continue;
        }
        if (!o.flags.every((f) => listed.has(f))) problems.push(`site ${name}: the row for ${o.flags.at(-1)} lacks ${o.flags.join(', ')}`);
        const dflt = /\(default: ("[^"]*")\)/.exec(o.description)?.[1];
        if (dflt && !row.includes(dflt)) problems.push(`site ${name}: ${o.flags.at(-1)} default ${dflt} not in its row`);
      }
      const known = new Set(options.flatMap((o) => o.flags));
      for (const f of listed) if (!known.has(f)) problems.push(`site ${name}: lists ${f}, which --help does not have`);
    }
    expect(problems).toEqual([]);
  });

  it('every `npm run <script>` mentioned exists in package.json', () => {
    const missing: string[] = [];
    for (const file of DOCS) {
      const text = read(file);
      for (const m of text.matchAll(/npm run ([\w:-]+)/g)) if (!(m[1]! in scripts)) missing.push(`${file}: npm run ${m[1]}`);
      if (/\bnpm test\b/.test(text) && !scripts.test) missing.push(`${file}: npm test`);
    }
    expect(missing).toEqual([]);
  });

  it('every `npx wrangler` command in the docs and its options exist in wrangler\'s own --help (the host CLI this project installs)', async () => {
    const wrangler = path.join(ROOT, 'node_modules', '.bin', 'wrangler');
    // wrangler takes 1-3 s to start on a busy machine: each command's help is asked once, and the
    // commands side by side (one after another, this test took 12 s in a busy CI run).
    const helps = new Map<string, Promise<string | undefined>>();
    const help = (words: string[]) => {
      const key = words.join(' ');
      if (!helps.has(key))
        helps.set(
          key,
          new Promise((resolve) =>
            execFile(wrangler, [...words, '--help'], { encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } }, (err, stdout) =>
              resolve(!err && stdout.startsWith(`wrangler ${key}`) ? stdout : undefined),
            ),
          ),
        );
      return helps.get(key)!;
    };
    const lines: { file: string; line: string; m: RegExpExecArray }[] = [];
    for (const [file, { code }] of parsed) {
      for (const line of code) {
        // `npx --yes wrangler@<version> pages deploy dist …` (as the deploy guide runs it) or `npx wrangler …`
        const m = /npx (?:--yes )?wrangler(?:@[\w.-]+)? ((?:[a-z][\w-]*(?:\s+|$))+)(.*)/.exec(line.split('#')[0]!);
        if (m) lines.push({ file, line, m });
      }
    }
    const problems = (
      await Promise.all(
        lines.map(async ({ file, line, m }) => {
          // The subcommand is the leading words that wrangler knows (`pages deploy`), the rest its arguments.
          const words = m[1]!.trim().split(/\s+/);
          let text: string | undefined;
          for (let n = words.length; n > 0 && !text; n--) text = await help(words.slice(0, n));
          if (!text) return [`${file}: unknown wrangler command in "${line.trim()}"`];
          return (`${m[1]} ${m[2]}`.match(/--[\w-]+/g) ?? []).filter((opt) => !text.includes(`${opt} `)).map((opt) => `${file}: wrangler has no ${opt} ("${line.trim()}")`);
        }),
      )
    ).flat();
    expect(problems).toEqual([]);
    expect(lines.length).toBeGreaterThan(0);
  });
});

describe('[R-OPS-11] the deploy guide, for a non-programmer', () => {
  const deploy = read('docs/deploy.md');

  it('every host tool it runs with npx works after the documented `npm ci --omit=dev`: `npx --yes <package>@<exact version>`; a devDependency at the installed version, so that a full `npm ci` runs it offline', () => {
    const problems: string[] = [];
    const tools = new Map<string, string>();
    for (const line of parsed.get('docs/deploy.md')!.code) {
      for (const m of line.replace(/\s#\s.*$/, '').matchAll(/\bnpx\s+((?:--?[\w-]+\s+)*)(\S+)/g)) {
        const [, flags, spec] = m as unknown as [string, string, string];
        if (spec === 'site' || spec.startsWith('<')) continue; // this project's own CLI, in every install; a placeholder
        const pinned = /^(@?[^@\s]+)@(\d+\.\d+\.\d+)$/.exec(spec);
        // Bare, npx stops without a terminal ("npx canceled due to missing packages") or runs whatever is newest.
        if (!/(?:^|\s)--yes\s/.test(flags) || !pinned) {
          problems.push(`"${line.trim()}": npx ${spec} is not installed by npm ci --omit=dev: write npx --yes <package>@<exact version>`);
          continue;
        }
        const [, name, version] = pinned as unknown as [string, string, string];
        const dev = pkg.devDependencies[name];
        if (dev !== undefined && dev !== version) problems.push(`"${line.trim()}": ${name} is ${dev} in devDependencies, the guide pins ${version}`);
        if (dev !== undefined) tools.set(name, version);
      }
    }
    expect(problems).toEqual([]);
    expect(tools.get('wrangler')).toBe(pkg.devDependencies.wrangler);
    // On a machine with the full `npm ci`, the pinned command runs the installed tool: offline, from an empty npm cache.
    const cache = mkdtempSync(path.join(os.tmpdir(), 'site-npx-cache-'));
    try {
      for (const [name, version] of tools) {
        const r = spawnSync('npx', ['--yes', `${name}@${version}`, '--version'], {
          cwd: ROOT,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, npm_config_offline: 'true', npm_config_cache: cache, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
        });
        expect(r.status, `npx --yes ${name}@${version} --version\n${r.stderr}`).toBe(0);
        expect(r.stdout).toContain(version);
      }
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('every host has a step-by-step guide: the account it needs, numbered steps to the first deploy, the Node.js version, `baseUrl`, and what to check after deploying', () => {
    expect(parsed.get('docs/deploy.md')!.headings).toContain('Before the first deploy');
    const sections = [...deploy.matchAll(/^## (.+\(`--host (\w+)`.*\))\n([\s\S]*?)(?=^## |(?![\s\S]))/gm)].map((m) => ({ title: m[1]!, host: m[2]!, text: m[3]! }));
    expect(sections.map((x) => x.host).sort()).toEqual(['cloudflare', 'netlify', 'nginx', 's3', 'static', 'vercel']);
    const missing: string[] = [];
    for (const { title, text } of sections) {
      const need = (what: string, ok: boolean) => ok || missing.push(`${title}: ${what}`);
      need('"**You need**" (the account or server)', text.includes('**You need**'));
      need('numbered steps', /^1\. [\s\S]*^2\. [\s\S]*^3\. /m.test(text));
      need('the Node.js version', /\*\*Node\.js version[:.]?\*\*/.test(text));
      need('`baseUrl`', text.includes('`baseUrl`'));
      need('"Check after deploying" with curl', /\*\*Check after deploying[\s\S]*?```sh\n\s*curl -I /.test(text));
    }
    expect(missing).toEqual([]);
    // The config file each host reads, as the build writes it beside the output, with the Node.js version it sets.
    for (const [host, file] of [['cloudflare', 'wrangler.toml'], ['netlify', 'netlify.toml']] as const) {
      const text = sections.find((x) => x.host === host)!.text;
      expect(text).toContain(`dist.host/${file}`);
      expect(text).toContain(`cp dist.host/${file} .`);
      expect(text).toContain(`NODE_VERSION = "${NODE_VERSION}"`);
    }
    expect(deploy).toContain(`Install Node.js ${NODE_VERSION}`);
  });
});
