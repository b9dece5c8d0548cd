/**
 * [R-BUILD-1][R-BUILD-7] The names in the content folder that no build reads and watch does not
 * follow (src/files.ts `ignoredName`): what file managers and editors leave beside posts and
 * images, and nothing an operator names on purpose.
 */
import { describe, expect, it } from 'vitest';
import { ignoredName } from '../../src/files.ts';

describe('[R-BUILD-1] names no build reads', () => {
  it.each([
    '.DS_Store', // macOS Finder
    '._en.md', // macOS resource forks on other file systems
    '.en.md.swp', // vim
    '.en.md.swo',
    '.obsidian', // an editor's folder
    '.git',
    'en.md~', // backups (vim, emacs, gedit)
    '#en.md#', // emacs autosave
    'en.md.tmp',
    'Thumbs.db', // Windows Explorer
    'thumbs.db',
    'desktop.ini',
  ])('%s is ignored', (name) => {
    expect(ignoredName(name)).toBe(true);
  });

  it.each(['en.md', 'es.md', 'madrid-luxury-dining', 'site.yaml', 'prices.yaml', 'hero.jpg', 'a~b.md', 'notes.swp.md', 'tmp', 'db', '#hash.md'])('%s is read', (name) => {
    expect(ignoredName(name)).toBe(false);
  });
});
