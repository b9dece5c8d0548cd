/** Engagement trackers: scroll depth, scroll progress, high engagement, time on page, exit intent. */
import type { Tracker } from './analytics.ts';

export const SCROLL_MILESTONES = [25, 50, 75, 90] as const;
export const TIME_MARKS = [10, 30, 60, 120, 300] as const;

/** Scroll percentage 0-100 of the document. */
export function scrollPercent(scrollY: number, viewport: number, height: number): number {
  const max = height - viewport;
  if (max <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round((scrollY / max) * 100)));
}

/** Two trackers from one scroll position: milestones (25/50/75/90) and each new 10 % step. */
export function createScrollTracker(tracker: Tracker) {
  let maxStep = 0;
  return (percent: number) => {
    for (const m of SCROLL_MILESTONES) if (percent >= m) tracker.once(`scroll_depth:${m}`, 'scroll_depth', { percent: m });
    const step = Math.floor(percent / 10) * 10;
    if (step > maxStep) {
      for (let s = maxStep + 10; s <= step; s += 10) tracker.once(`scroll_progress:${s}`, 'scroll_progress', { percent: s });
      maxStep = step;
    }
  };
}

/** High engagement at the 5th scroll event; the listener is removed after 5 minutes. */
export function watchHighEngagement(tracker: Tracker, target: Pick<Window, 'addEventListener' | 'removeEventListener'>, setTimer: typeof setTimeout = setTimeout) {
  let count = 0;
  const onScroll = () => {
    count++;
    if (count === 5) {
      tracker.once('high_engagement', 'high_engagement', { scrolls: 5 });
      target.removeEventListener('scroll', onScroll);
    }
  };
  target.addEventListener('scroll', onScroll, { passive: true });
  setTimer(() => target.removeEventListener('scroll', onScroll), 5 * 60_000);
}

/** time_on_page at 10, 30, 60, 120 and 300 seconds. */
export function watchTimeOnPage(tracker: Tracker, setTimer: typeof setTimeout = setTimeout) {
  for (const s of TIME_MARKS) setTimer(() => tracker.once(`time_on_page:${s}`, 'time_on_page', { seconds: s }), s * 1000);
}

/** exit_intent when the pointer leaves through the top of the window. */
export function watchExitIntent(tracker: Tracker, doc: Document = document) {
  doc.addEventListener('mouseout', (e) => {
    if (!e.relatedTarget && e.clientY <= 0) tracker.once('exit_intent', 'exit_intent');
  });
}
