#!/usr/bin/env node
/**
 * The operator's guide's routine tasks (docs/operator.md), applied to a copy of a content folder:
 *
 *   node tests/acceptance/operator-tasks.mjs <copy-of-content>
 *   SITE_CONTENT=<copy-of-content> npm test
 *
 * Each task uses what docs/operator.md tells the operator to use (the `site new` commands, then edits
 * to the files it names), so the suite run against the result shows the tasks work end to end.
 * Tasks: a fifth language (fr), a new city (Barcelona), a post in two languages, a price change,
 * a new review. Nothing outside the given folder is changed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument, isMap, isScalar, visit } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = process.argv[2] && path.resolve(process.argv[2]);
if (!dir || !existsSync(path.join(dir, 'site.yaml'))) {
  console.error('usage: node tests/acceptance/operator-tasks.mjs <copy-of-content>  (a folder holding site.yaml)');
  process.exit(2);
}
if (dir === path.join(ROOT, 'content')) {
  console.error('operator-tasks: give it a COPY of content/ (cp -r content /tmp/site-content), not the repository\'s own');
  process.exit(2);
}

const site = (...args) => {
  console.log(`$ site ${args.join(' ')}`);
  process.stdout.write(execFileSync(process.execPath, [path.join(ROOT, 'bin/site.js'), ...args, '--content', dir], { encoding: 'utf8' }));
};
const file = (rel) => path.join(dir, rel);
const doc = (rel) => parseDocument(readFileSync(file(rel), 'utf8'));
const save = (rel, d) => writeFileSync(file(rel), d.toString({ lineWidth: 0, flowCollectionPadding: false }));
const step = (title) => console.log(`\n== ${title}`);

// 1. A fifth language. fr ships with a complete text table: list it in site.yaml.
step('fifth language: fr');
{
  const s = doc('site.yaml');
  const langs = s.get('languages');
  if (!langs.items.some((i) => (isScalar(i) ? i.value : i) === 'fr')) langs.add('fr');
  // Shipped as a draft (reviewed in site watch): publishing it is moving it to languages.
  const drafts = s.get('draftLanguages');
  if (drafts) s.set('draftLanguages', drafts.items.map((i) => (isScalar(i) ? i.value : i)).filter((l) => l !== 'fr'));
  save('site.yaml', s);
  console.log('site.yaml: languages += fr, off draftLanguages');
}

// 2. A new city: scaffold it, then write its texts (here: keep the drafts, in every language).
step('new city: barcelona');
site('new', 'city', 'barcelona', '--timezone', 'Europe/Madrid', '--name', 'Barcelona', '--path', '/barcelona-vip-companion');
{
  const languages = doc('site.yaml').toJSON().languages;
  for (const lang of languages) {
    const rel = `i18n/${lang}.yaml`;
    const t = doc(rel);
    // The operator writes the city's texts; the acceptance keeps the drafted ones, unmarked.
    for (const group of ['city', 'page']) {
      const node = t.getIn([group, 'barcelona']);
      if (isMap(node)) visit(node, { Scalar(_, n) { if (typeof n.value === 'string') n.value = n.value.replace(/^\[untranslated\] /, ''); } });
    }
    save(rel, t);
  }
  const c = doc('data/cities.yaml');
  const barcelona = c.contents.items.find((i) => i.get('id') === 'barcelona');
  barcelona.set('areas', c.createNode(['eixample', 'gracia'], { flow: true }));
  // Texts written: the city goes live (the operator's guide, "Add a city", step 4).
  barcelona.delete('draft');
  save('data/cities.yaml', c);
  for (const lang of languages) {
    const rel = `i18n/${lang}.yaml`;
    const t = doc(rel);
    t.setIn(['city', 'barcelona', 'area'], t.createNode({ eixample: 'Eixample', gracia: 'Gràcia' }));
    const model = t.getIn(['city', doc('data/cities.yaml').toJSON()[0].id, 'areaText']);
    if (model) t.setIn(['city', 'barcelona', 'areaText'], t.createNode({ eixample: 'Eixample', gracia: 'Gràcia' }));
    save(rel, t);
  }
  console.log('texts of barcelona written in', languages.join(', '), '; areas eixample, gracia');
}

// 3. A post in two languages.
step('post in two languages: barcelona-gallery-night');
site('new', 'post', 'barcelona-gallery-night', '--langs', 'en,es', '--category', doc('data/blog.yaml').toJSON().categories[0]);
{
  const posts = {
    en: { title: 'A gallery night in Barcelona', excerpt: 'Openings in the Eixample, a late dinner and the walk home through Gràcia.', body: 'Barcelona keeps its galleries open late on the first Thursday of the month.\n\n## Where to begin\n\nStart in the Eixample, where the openings cluster around Consell de Cent.\n\n## Dinner after\n\nBook a table for ten: the city eats late.\n' },
    es: { title: 'Una noche de galerías en Barcelona', excerpt: 'Inauguraciones en el Eixample, una cena tardía y el paseo de vuelta por Gràcia.', body: 'Barcelona abre sus galerías hasta tarde el primer jueves de cada mes.\n\n## Por dónde empezar\n\nEmpieza en el Eixample, donde las inauguraciones se concentran en Consell de Cent.\n\n## La cena\n\nReserva mesa a las diez: la ciudad cena tarde. Si te apetece, escríbeme y te acompaño.\n' },
  };
  for (const [lang, p] of Object.entries(posts)) {
    const rel = `blog/barcelona-gallery-night/${lang}.md`;
    const [, matter] = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(file(rel), 'utf8'));
    const fm = parseDocument(matter);
    fm.set('title', p.title);
    fm.set('excerpt', p.excerpt);
    fm.set('tags', fm.createNode(['barcelona', 'art'], { flow: true }));
    fm.delete('draft'); // publish
    writeFileSync(file(rel), `---\n${fm.toString({ lineWidth: 0, flowCollectionPadding: false })}---\n\n${p.body}`);
    console.log(`${rel}: written, published`);
  }
}

// 4. A price change: the 1-hour rate, in data/rates.yaml (its one source).
step('price change: the first rate tier +50');
{
  const r = doc('data/rates.yaml');
  const tier = r.getIn(['tiers', 0]);
  const id = tier.get('id');
  const old = tier.get('price');
  const next = old + 50;
  tier.set('price', next);
  save('data/rates.yaml', r);
  console.log(`data/rates.yaml: ${id} ${old} → ${next}`);
  // Content shapes from before "one source per fact" repeat the price: follow it there too, and say so.
  for (const rel of ['data/services.yaml', 'data/booking.yaml']) {
    if (!existsSync(file(rel))) continue;
    const before = readFileSync(file(rel), 'utf8');
    const after = before.replace(new RegExp(`(price: )${old}(\\b)`), `$1${next}$2`);
    if (after !== before) {
      writeFileSync(file(rel), after);
      console.log(`${rel}: still repeats the price in this content shape: ${old} → ${next}`);
    }
  }
}

// 5. A new review (a real one: no sample flag).
step('new review');
{
  const r = doc('data/reviews.yaml');
  const city = doc('data/cities.yaml').toJSON()[0].id;
  r.contents.add(r.createNode({ id: 'review-barcelona-1', author: 'Marta', rating: 5, body: 'Wonderful company at the opera, attentive and warm.', date: '2025-10-04', city }, { flow: true }));
  save('data/reviews.yaml', r);
  console.log('data/reviews.yaml: review-barcelona-1 added');
}

step('check');
site('check');
console.log(`\nDone. Now: SITE_CONTENT=${dir} npm test`);
