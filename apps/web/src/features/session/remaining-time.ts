import { i18n as portalI18n, type I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';

// The countdown's words: read by everyone, screen readers included ("0:42" reads badly). `i18n`: the
// screen's language (useLingui's).

export function secondsUntil(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

// Minutes and seconds in words are Intl's, in every language ("1 minuto 15 segundos").
const unitFormats = new Map<
  string,
  { minute: Intl.NumberFormat; second: Intl.NumberFormat; both: Intl.ListFormat }
>();
function unitsFor(locale: string) {
  let units = unitFormats.get(locale);
  if (!units) {
    const unit = (name: 'minute' | 'second') =>
      new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'long' });
    units = {
      minute: unit('minute'),
      second: unit('second'),
      both: new Intl.ListFormat(locale, { type: 'unit', style: 'narrow' }),
    };
    unitFormats.set(locale, units);
  }
  return units;
}

/** 75 -> "1 minute 15 seconds", 60 -> "1 minute", 5 -> "5 seconds". */
export function formatRemaining(seconds: number, i18n: I18n = portalI18n): string {
  const { minute, second, both } = unitsFor(i18n.locale || 'en-US');
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return second.format(rest);
  return rest === 0 ? minute.format(minutes) : both.format([minute.format(minutes), second.format(rest)]);
}

const ANNOUNCED_AT = [30, 10];

/**
 * What the polite live region says: nothing each second (that would drown everything else), only
 * when a mark the dialog opened above has been passed.
 */
export function remainingAnnouncement(
  seconds: number,
  secondsAtOpen: number,
  i18n: I18n = portalI18n,
): string {
  const mark = ANNOUNCED_AT.filter((at) => at < secondsAtOpen && seconds <= at).at(-1);
  return mark === undefined
    ? ''
    : i18n._(msg`Less than ${plural(mark, { one: '# second', other: '# seconds' })} left.`);
}
