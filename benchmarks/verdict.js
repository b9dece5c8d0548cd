// The speed guard's rule (bench:compare), apart so a test can hold it: a case fails when the
// tree's median is more than `limit` slower than the commit's AND the two sets of runs do not
// overlap (the slowest run of the commit is faster than the fastest run of the tree).

/** Median of a list of numbers (the upper middle one for an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * @param {number[]} a run times of the tree (A)
 * @param {number[]} b run times of the commit (B)
 * @returns {{ ratio: number, fails: boolean, verdict: string }}
 */
export function verdict(a, b, limit = 1.1) {
  const ratio = median(a) / median(b);
  if (ratio > limit && Math.max(...b) < Math.min(...a)) return { ratio, fails: true, verdict: 'SLOWER (fails the guard)' };
  if (ratio > limit) return { ratio, fails: false, verdict: 'slower median, but runs overlap: noise' };
  if (ratio < 1 / limit && Math.max(...a) < Math.min(...b)) return { ratio, fails: false, verdict: 'faster' };
  return { ratio, fails: false, verdict: 'same within noise' };
}
