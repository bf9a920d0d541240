import { useEffect, useState } from 'react';
import { secondsUntil } from './remaining-time';

// Wakes up just after the displayed number changes (a few ms late, never early).
function delayToNextSecond(expiresAt: number, now: number): number {
  const left = (expiresAt - now) % 1000;
  return left > 0 ? left + 5 : 1000;
}

/** Whole seconds left until `expiresAt`, updated as each second passes. */
export function useSecondsUntil(expiresAt: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const current = Date.now();
      setNow(current);
      timer = setTimeout(tick, delayToNextSecond(expiresAt, current));
    };
    timer = setTimeout(tick, delayToNextSecond(expiresAt, Date.now()));
    return () => clearTimeout(timer);
  }, [expiresAt]);
  return secondsUntil(expiresAt, now);
}
