/** Usage errors (unknown command or option, bad argument): exit code 2, unlike a failed build (1). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Exit code of a usage error. */
export const USAGE_EXIT = 2;

/** Wrap `text` at `width` columns on word boundaries; paragraphs (blank lines) and indented lines are kept. */
export function wrap(text: string, width = 80): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width || /^\s/.test(line)) return line;
      const out: string[] = [];
      let cur = '';
      for (const word of line.split(' ')) {
        if (cur && cur.length + 1 + word.length > width) {
          out.push(cur);
          cur = word;
        } else cur = cur ? `${cur} ${word}` : word;
      }
      if (cur) out.push(cur);
      return out.join('\n');
    })
    .join('\n');
}
