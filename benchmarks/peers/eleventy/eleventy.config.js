// Eleventy 3 set-up for `npm run bench:scale`: markdown only (no template engine inside the
// markdown), one liquid layout, a list page per language and one per category and language.
// The benchmark runs Eleventy with the generated folder as cwd and input, copying `_includes/`
// and `lists.liquid` next to `posts/<lang>/<slug>.md`; BENCH_LANGS lists the languages.
const langs = (process.env.BENCH_LANGS || 'en').split(',');
const categories = (process.env.BENCH_CATEGORIES || 'lifestyle,travel,culture,business,events').split(',');

export default function (eleventyConfig) {
  eleventyConfig.addGlobalData('layout', 'base.liquid');
  eleventyConfig.addGlobalData('lists', () =>
    langs.flatMap((lang) => [
      { lang, category: '', title: `Posts (${lang})`, url: `/${lang}/posts/` },
      ...categories.map((category) => ({ lang, category, title: `${category} (${lang})`, url: `/${lang}/category/${category}/` })),
    ]),
  );
  eleventyConfig.addCollection('posts', (api) => api.getFilteredByGlob('./posts/**/*.md').reverse());
  eleventyConfig.addFilter('listed', (posts, lang, category) =>
    posts.filter((p) => p.inputPath.startsWith(`./posts/${lang}/`) && (!category || p.data.category === category)),
  );
  eleventyConfig.addFilter('isoDate', (d) => d.toISOString().slice(0, 10));
  return {
    dir: { input: '.', includes: '_includes' },
    templateFormats: ['md', 'liquid'],
    markdownTemplateEngine: false,
    htmlTemplateEngine: 'liquid',
  };
}
