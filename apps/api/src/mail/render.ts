// One layout for every e-mail the portal sends: an HTML part (tables and inline styles, which is what
// mail clients render reliably) and a plain-text part saying the same. Every value is text: it is
// escaped into the HTML, and links must point at the portal's own public origin. The layout's own words
// are in the message's language (words/).

import type { Locale } from '@customer-core/contracts';
import { wordsOf } from './words/index.js';

export interface MailBrand {
  lenderName: string;
  /** The portal's public origin, e.g. https://portal.lender.example (no trailing slash). */
  publicUrl: string;
  supportPhone: string;
}

export interface EmailContent {
  /** The line a mail client shows next to the subject; not shown in the message itself. */
  preheader: string;
  heading: string;
  paragraphs: string[];
  /** The one thing to do, as a button (and as the bare link below it). */
  action?: { label: string; url: string };
  /** Smaller print after the action: what to do if this was not you. */
  footnote: string;
  /** The language of the layout's own words; English unless given. */
  locale?: Locale;
}

export interface RenderedEmail {
  html: string;
  text: string;
}

const COLORS = {
  page: '#eef2f6',
  brand: '#0b3a5b',
  accent: '#46d1bf',
  surface: '#ffffff',
  border: '#d3dce5',
  text: '#17232f',
  muted: '#4a5a6a',
  link: '#0a58a6',
};
const FONT = "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Turns a path (or a URL already on the portal's origin) into an absolute URL on the public origin.
 * Anything else (another origin, a protocol-relative or javascript: URL) is refused: an e-mail from
 * the lender links to the lender's portal only.
 */
export function absoluteUrlOn(publicUrl: string, pathOrUrl: string): string {
  const base = new URL(`${publicUrl.replace(/\/+$/, '')}/`);
  let candidate: string;
  if (pathOrUrl.startsWith('/') && !pathOrUrl.startsWith('//') && !pathOrUrl.startsWith('/\\')) {
    candidate = `${base.href.replace(/\/$/, '')}${pathOrUrl}`;
  } else if (/^https?:\/\//i.test(pathOrUrl)) {
    candidate = pathOrUrl;
  } else {
    throw new Error('absoluteUrl takes a path starting with / or a URL on the public origin');
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw new Error('absoluteUrl: not a valid URL');
  }
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname) || url.username || url.password) {
    throw new Error(`absoluteUrl refuses a link outside ${base.origin}${base.pathname}`);
  }
  return url.href;
}

/** Text as the user typed it, made safe for one line: no control characters, collapsed spaces, bounded. */
export function oneLine(value: string, max = 100): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').replace(/\s+/g, ' ');
  return clean.trim().slice(0, max).trim();
}

export function emailRenderer(brand: MailBrand) {
  const publicUrl = brand.publicUrl.replace(/\/+$/, '');
  const publicHost = new URL(publicUrl).host;
  const absoluteUrl = (pathOrUrl: string) => absoluteUrlOn(publicUrl, pathOrUrl);

  function renderEmail(content: EmailContent): RenderedEmail {
    const action = content.action && { label: content.action.label, url: absoluteUrl(content.action.url) };
    const phone = escapeHtml(brand.supportPhone);
    // Text, escaped; the support number never breaks across lines.
    const e = (value: string) =>
      phone
        ? escapeHtml(value).replaceAll(phone, `<span style="white-space:nowrap;">${phone}</span>`)
        : escapeHtml(value);
    const lender = e(brand.lenderName);
    const words = wordsOf(content.locale);
    const { sentBy } = words.layout;

    const paragraphs = content.paragraphs.map((p) => `<p style="margin:0 0 16px;">${e(p)}</p>`).join('\n');
    const button = action
      ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;">
<tr><td align="center" bgcolor="${COLORS.brand}" style="border-radius:8px;background-color:${COLORS.brand};">
<a href="${escapeHtml(action.url)}" target="_blank" style="display:inline-block;padding:14px 28px;font-family:${FONT};font-size:16px;font-weight:700;line-height:20px;color:#ffffff;text-decoration:none;border-radius:8px;">${e(action.label)}</a>
</td></tr>
</table>
<p style="margin:0 0 24px;font-size:14px;line-height:20px;color:${COLORS.muted};">${e(words.layout.buttonFallback)}<br>
<a href="${escapeHtml(action.url)}" target="_blank" style="color:${COLORS.link};word-break:break-all;">${e(action.url)}</a></p>`
      : '';

    const html = `<!doctype html>
<html lang="${words.lang === 'en-US' ? 'en' : escapeHtml(words.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(content.heading)}</title>
</head>
<body style="margin:0;padding:0;background-color:${COLORS.page};">
<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;font-size:1px;line-height:1px;color:${COLORS.page};">${escapeHtml(content.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${COLORS.page}" style="background-color:${COLORS.page};">
<tr><td align="center" style="padding:32px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;">
<tr><td bgcolor="${COLORS.brand}" style="background-color:${COLORS.brand};border-radius:12px 12px 0 0;border-bottom:4px solid ${COLORS.accent};padding:20px 32px;font-family:${FONT};font-size:19px;font-weight:700;line-height:24px;color:#ffffff;">${lender}</td></tr>
<tr><td bgcolor="${COLORS.surface}" style="background-color:${COLORS.surface};border:1px solid ${COLORS.border};border-top:0;border-radius:0 0 12px 12px;padding:32px;font-family:${FONT};font-size:16px;line-height:24px;color:${COLORS.text};">
<h1 style="margin:0 0 16px;font-family:${FONT};font-size:24px;line-height:32px;font-weight:700;color:${COLORS.text};">${e(content.heading)}</h1>
${paragraphs}
${button}
<p style="margin:0;padding-top:20px;border-top:1px solid ${COLORS.border};font-size:14px;line-height:20px;color:${COLORS.muted};">${e(content.footnote)}</p>
</td></tr>
<tr><td align="center" style="padding:20px 32px;font-family:${FONT};font-size:12px;line-height:18px;color:${COLORS.muted};">
${e(sentBy.before)}${lender}${e(sentBy.between)}<a href="${escapeHtml(publicUrl)}" target="_blank" style="color:${COLORS.muted};">${e(publicHost)}</a>${e(sentBy.after)}<br>
${e(words.layout.questions(brand.supportPhone))}<br>
${e(words.layout.neverAsk)}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;

    const text = [
      content.heading,
      ...content.paragraphs,
      ...(action ? [`${action.label}:\n${action.url}`] : []),
      content.footnote,
      `-- \n${brand.lenderName} · ${publicUrl}\n${words.layout.questions(brand.supportPhone)}\n${words.layout.neverAsk}`,
    ].join('\n\n');

    return { html, text: `${text}\n` };
  }

  return { absoluteUrl, renderEmail };
}
