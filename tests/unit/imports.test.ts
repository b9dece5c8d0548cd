/**
 * The generator's module graph: no import circles (a type two stages share lives below both), and
 * templates and the client script reach the generator through its one public module, src/api.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/site.ts';

/** The relative module specifiers a source imports (static, type-only, re-exports and dynamic). */
function importSpecs(src: string): string[] {
  return [...src.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]!);
}

/** Relative imports of every .ts/.tsx file under `dir`. */
function importGraph(dir: string): Map<string, string[]> {
  const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(dir, f));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    graph.set(f, importSpecs(readFileSync(f, 'utf8')).map((s) => path.resolve(path.dirname(f), s)).filter((d) => known.has(d)));
  }
  return graph;
}

/** Every circle in the graph, each as `a → b → … ` (relative to `dir`). */
function circles(graph: Map<string, string[]>, dir: string): string[] {
  const found = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const done = new Set<string>();
  const visit = (n: string) => {
    stack.push(n);
    onStack.add(n);
    for (const m of graph.get(n) ?? []) {
      if (onStack.has(m)) found.add(stack.slice(stack.indexOf(m)).map((x) => path.relative(dir, x)).join(' → '));
      else if (!done.has(m)) visit(m);
    }
    stack.pop();
    onStack.delete(n);
    done.add(n);
  };
  for (const n of graph.keys()) if (!done.has(n)) visit(n);
  return [...found];
}

describe('[R-GEN-1] module graph', () => {
  it('src/ has no import circles', () => {
    const dir = path.join(ROOT, 'src');
    expect(circles(importGraph(dir), dir)).toEqual([]);
  });

  it('templates/, the starter and client/ import nothing from src/, and the generator only by its public name @site/api', () => {
    const strays: string[] = [];
    let byName = 0;
    for (const dir of ['templates', 'client', 'starter'].map((d) => path.join(ROOT, d))) {
      const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => /\.tsx?$/.test(f));
      for (const f of files) {
        const src = readFileSync(path.join(dir, f), 'utf8');
        byName += (src.match(/from '@site\/api'/g) ?? []).length;
        for (const spec of importSpecs(src)) {
          // A relative path into src/ works here but not in a site made with site init (it lives elsewhere).
          const target = path.resolve(path.dirname(path.join(dir, f)), spec);
          if (target.startsWith(path.join(ROOT, 'src') + path.sep)) strays.push(`${path.relative(ROOT, path.join(dir, f))} imports ${path.relative(ROOT, target)}`);
        }
      }
    }
    expect(strays).toEqual([]);
    expect(byName).toBeGreaterThan(5);
  });

  it('the circle finder finds a planted circle (type imports and dynamic imports count)', () => {
    const graph = new Map([
      ['/x/a.ts', ['/x/b.ts']],
      ['/x/b.ts', ['/x/c.ts']],
      ['/x/c.ts', ['/x/a.ts']],
      ['/x/d.ts', ['/x/a.ts']],
    ]);
    expect(circles(graph, '/x')).toEqual(['a.ts → b.ts → c.ts']);
    // The parser sees `import type` and `await import()` edges.
    const src = `import type { A } from './a.ts';\nconst m = await import('./b.ts');\nexport { C } from './c.ts';`;
    expect(importSpecs(src)).toEqual(['./a.ts', './b.ts', './c.ts']);
  });
});
