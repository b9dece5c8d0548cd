/** Progress of long stages: an updating line on a terminal, a plain line every few seconds without one. */
import { describe, expect, it } from 'vitest';
import { startProgress } from '../../src/progress.ts';

/** A stream and a clock the test moves by hand. */
function fake(isTTY: boolean) {
  const writes: string[] = [];
  let t = 0;
  return { stream: { isTTY, write: (s: string) => writes.push(s) }, now: () => t, advance: (ms: number) => (t += ms), writes };
}

describe('[R-BUILD-1] progress of long stages', () => {
  it('without a terminal: one plain line per interval, nothing for a fast stage, the total at the end', () => {
    const f = fake(false);
    const p = startProgress('images', 40, { stream: f.stream, now: f.now, interval: 5000 });
    p.update(1);
    f.advance(1000);
    p.update(2);
    expect(f.writes).toEqual([]); // a stage shorter than the interval prints nothing
    f.advance(4000);
    p.update(10);
    f.advance(100);
    p.update(11);
    f.advance(5000);
    p.update(30);
    p.end();
    expect(f.writes).toEqual(['images: 10/40 (25%)\n', 'images: 30/40 (75%)\n', 'images: 40/40 (100%) done in 10.1 s\n']);
    const quick = fake(false);
    const q = startProgress('pages', 10, { stream: quick.stream, now: quick.now, interval: 5000 });
    q.update(10);
    q.end();
    expect(quick.writes).toEqual([]);
  });

  it('on a terminal: one line updated in place (after the first second), cleared at the end', () => {
    const f = fake(true);
    const p = startProgress('pages', 200, { stream: f.stream, now: f.now, interval: 5000 });
    p.update(5);
    f.advance(1200);
    p.update(50);
    f.advance(50);
    p.update(60); // within 100 ms of the last update: skipped
    f.advance(100);
    p.update(100);
    p.end();
    expect(f.writes).toEqual(['\r\x1b[Kpages: 50/200 (25%)', '\r\x1b[Kpages: 100/200 (50%)', '\r\x1b[K']);
    expect(f.writes.join('')).not.toContain('\n');
  });

  it('[R-FAST-4] names the unit that just finished (each image of a cold encode), cut to the terminal width', () => {
    const plain = fake(false);
    const p = startProgress('images', 14, { stream: plain.stream, now: plain.now, interval: 5000 });
    plain.advance(5000);
    p.update(3, 'gallery/lifestyle-2.svg (0.4 s of encoding)');
    expect(plain.writes).toEqual(['images: 3/14 (21%) gallery/lifestyle-2.svg (0.4 s of encoding)\n']);
    const term = fake(true);
    const narrow = { ...term.stream, columns: 30 };
    const q = startProgress('images', 14, { stream: narrow, now: term.now, interval: 5000 });
    term.advance(1200);
    q.update(3, 'gallery/a-very-long-name-that-would-wrap.svg');
    expect(term.writes).toHaveLength(1);
    expect(term.writes[0]!.replace('\r\x1b[K', '').length).toBeLessThan(30);
    expect(term.writes[0]).toMatch(/^\r\x1b\[Kimages: 3\/14 \(21%\) gallery\/a.*…$/);
  });
});
