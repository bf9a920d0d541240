// The borrower's activity in this tab: pointer, key, touch and scroll input, or the tab coming back
// into view. Reported at most once a second, since pointer moves and scrolling fire in bursts (timed
// on the monotonic clock: a device clock set back must not silence input).

const INPUT_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;
const THROTTLE_MS = 1000;

export function watchActivity(onActivity: (at: number) => void): () => void {
  let reportedAt = -Infinity;
  const onInput = () => {
    const now = performance.now();
    if (now - reportedAt < THROTTLE_MS) return;
    reportedAt = now;
    onActivity(Date.now());
  };
  const onVisibility = () => {
    if (document.visibilityState === 'visible') onActivity(Date.now());
  };
  const options = { capture: true, passive: true } as const;
  for (const type of INPUT_EVENTS) window.addEventListener(type, onInput, options);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    for (const type of INPUT_EVENTS) window.removeEventListener(type, onInput, options);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
