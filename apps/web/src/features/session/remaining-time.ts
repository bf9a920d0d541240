// The countdown's words: read by everyone, screen readers included ("0:42" reads badly).

export function secondsUntil(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** 75 -> "1 minute 15 seconds", 60 -> "1 minute", 5 -> "5 seconds". */
export function formatRemaining(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return plural(rest, 'second');
  return rest === 0 ? plural(minutes, 'minute') : `${plural(minutes, 'minute')} ${plural(rest, 'second')}`;
}

const ANNOUNCED_AT = [30, 10];

/**
 * What the polite live region says: nothing each second (that would drown everything else), only
 * when a mark the dialog opened above has been passed.
 */
export function remainingAnnouncement(seconds: number, secondsAtOpen: number): string {
  const mark = ANNOUNCED_AT.filter((at) => at < secondsAtOpen && seconds <= at).at(-1);
  return mark === undefined ? '' : `Less than ${mark} seconds left.`;
}
