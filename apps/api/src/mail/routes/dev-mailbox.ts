import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { singleLineText } from '@customer-core/contracts';
import type { DevMailboxMessage, DevMailboxRepository } from '../dev-mailbox-repository.js';
import { escapeHtml as e } from '../render.js';

// The dev mailbox: where e-mail goes outside production when no SMTP relay is configured. Registered
// only then; in production these routes do not exist.

const Query = z.object({
  to: singleLineText().trim().max(254).optional(),
  id: singleLineText().max(64).optional(),
});

/**
 * The page has no script at all. A message's HTML part is shown in a sandboxed iframe (no scripts, no
 * same-origin access; links open in a new tab); the srcdoc document inherits this policy.
 */
const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** One message as GET /dev/mailbox/messages lists it (newest first). */
export type DevMailboxEntry = Pick<
  DevMailboxMessage,
  'id' | 'to' | 'subject' | 'text' | 'html' | 'links' | 'createdAt'
>;

export const devMailboxRoutes =
  ({ mailbox, lenderName }: { mailbox: DevMailboxRepository; lenderName: string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/dev/mailbox/messages',
      { schema: { hide: true, querystring: Query.pick({ to: true }) } },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const messages = await mailbox.list({ to: request.query.to || undefined });
        return messages.map(({ id, to, subject, text, html, links, createdAt }): DevMailboxEntry => ({
          id,
          to,
          subject,
          text,
          html,
          links,
          createdAt,
        }));
      },
    );

    app.get('/dev/mailbox', { schema: { hide: true, querystring: Query } }, async (request, reply) => {
      const to = request.query.to || undefined;
      const messages = await mailbox.list({ to });
      const selected = messages.find((m) => m.id === request.query.id) ?? messages[0];
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', PAGE_CSP)
        .send(mailboxPage({ lenderName, messages, selected, to }));
    });
  };

function mailboxPage(page: {
  lenderName: string;
  messages: DevMailboxMessage[];
  selected: DevMailboxMessage | undefined;
  to: string | undefined;
}): string {
  const { lenderName, messages, selected, to } = page;
  const hrefOf = (id: string) =>
    `/dev/mailbox?${new URLSearchParams({ ...(to ? { to } : {}), id }).toString()}`;
  const list = messages
    .map(
      (m) => `<li><a class="item${m === selected ? ' item--selected' : ''}" href="${e(hrefOf(m.id))}"${
        m === selected ? ' aria-current="true"' : ''
      }>
  <span class="item__subject">${e(m.subject)}</span>
  <span class="item__meta"><span class="item__to">${e(m.to)}</span><time datetime="${e(m.createdAt)}">${e(shortTime(m.createdAt))}</time></span>
</a></li>`,
    )
    .join('\n');

  const empty = `<div class="empty">
  <h1>No messages${to ? ` for ${e(to)}` : ''} yet</h1>
  <p>While the portal runs without <code>SMTP_URL</code>, every e-mail it sends is delivered here instead;
  the server log says where, without the links' one-time tokens.</p>
</div>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${selected ? `${e(selected.subject)} · ` : ''}Dev mailbox · ${e(lenderName)}</title>
<style>${STYLES}</style>
</head>
<body>
<header class="bar">
  <span class="bar__brand">${e(lenderName)}</span>
  <span class="bar__tag">Dev mailbox</span>
  <a class="bar__link" href="/">Open the portal</a>
</header>
<div class="layout">
  <nav class="inbox" aria-label="Messages">
    <form class="filter" method="get" action="/dev/mailbox">
      <label for="to">Recipient</label>
      <div class="filter__row">
        <input id="to" name="to" type="email" placeholder="Everyone" value="${e(to ?? '')}" autocomplete="off">
        <button type="submit">Filter</button>
      </div>
    </form>
    <p class="inbox__count">${count(messages.length)}${
      to ? ` · <a href="/dev/mailbox">show everyone's</a>` : ''
    }</p>
    <ol class="inbox__list">
${list}
    </ol>
  </nav>
  <main class="message">
${selected ? messageView(selected) : empty}
  </main>
</div>
</body>
</html>
`;
}

function messageView(m: DevMailboxMessage): string {
  const links = m.links.length
    ? `<ul class="links">${m.links.map((l) => `<li><a href="${e(l)}" target="_blank" rel="noopener noreferrer">${e(l)}</a></li>`).join('')}</ul>`
    : '<p class="muted">No links.</p>';
  // Links in the message open in a new tab, outside the sandbox.
  const srcdoc = m.html.replace(/<head(\s[^>]*)?>/i, (head) => `${head}<base target="_blank">`);
  return `<h1 class="message__subject">${e(m.subject)}</h1>
<dl class="headers">
  <dt>From</dt><dd>${e(m.from)}</dd>
  <dt>To</dt><dd>${e(m.to)}</dd>
  <dt>Received</dt><dd><time datetime="${e(m.createdAt)}">${e(longTime(m.createdAt))}</time></dd>
  <dt>Kind</dt><dd>${e(m.kind)}</dd>
</dl>
<section class="panel" aria-labelledby="links-heading">
  <h2 id="links-heading">Links</h2>
  ${links}
</section>
<iframe class="preview" title="The message as the recipient sees it" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" srcdoc="${e(srcdoc)}"></iframe>
<details class="panel">
  <summary>Plain-text part</summary>
  <pre>${e(m.text)}</pre>
</details>`;
}

const count = (n: number) =>
  n === 0 ? 'No messages' : `${n} ${n === 1 ? 'message' : 'messages'}, newest first`;
const shortTime = (iso: string) => iso.slice(11, 19);
const longTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;

const STYLES = `
:root{--page:#eef2f6;--surface:#fff;--border:#d3dce5;--text:#17232f;--muted:#4a5a6a;--primary:#0a58a6;--brand:#0b2e4a;--accent:#46d1bf;--selected:#e7f0fa;
font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:var(--text);background:var(--page);line-height:1.5;color-scheme:light}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh}
a{color:var(--primary)}
a:focus-visible,button:focus-visible,input:focus-visible,summary:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
.bar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem .75rem;padding:.875rem 1.5rem;background:linear-gradient(160deg,#0f3a5e,var(--brand));color:#fff;border-bottom:3px solid var(--accent)}
.bar__brand{font-weight:700;font-size:1.125rem}
.bar__tag{font-size:.8125rem;font-weight:600;padding:.125rem .5rem;border-radius:999px;background:rgb(70 209 191 / 20%);color:#d5f5f0}
.bar__link{margin-left:auto;color:#d5e3ef;font-size:.9375rem}
.bar__link:focus-visible{outline-color:#ffd166}
.layout{display:grid;grid-template-columns:minmax(16rem,22rem) minmax(0,1fr);gap:1.5rem;padding:1.5rem;max-width:90rem;margin:0 auto}
.layout>*{min-width:0}
.inbox,.message{background:var(--surface);border:1px solid var(--border);border-radius:12px;box-shadow:0 1px 2px rgb(11 46 74 / 6%)}
.inbox{padding:1rem;align-self:start}
.filter label{display:block;font-weight:600;font-size:.875rem;margin-bottom:.25rem}
.filter__row{display:flex;gap:.5rem}
.filter input{flex:1;min-width:0;font:inherit;padding:.5rem .625rem;border:1px solid #6f7f8f;border-radius:8px}
.filter button{font:inherit;font-weight:600;padding:.5rem .875rem;border:0;border-radius:8px;background:var(--primary);color:#fff;cursor:pointer}
.inbox__count{margin:.75rem 0 .5rem;font-size:.875rem;color:var(--muted)}
.inbox__list{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:minmax(0,1fr);gap:.25rem}
.item{display:grid;gap:.125rem;padding:.625rem .75rem;border-radius:8px;text-decoration:none;color:var(--text);border:1px solid transparent}
.item:hover{background:#f4f7fa}
.item--selected{background:var(--selected);border-color:#b9d3ee}
.item__subject{font-weight:600;overflow-wrap:anywhere}
.item__meta{display:flex;justify-content:space-between;gap:.5rem;min-width:0;font-size:.8125rem;color:var(--muted)}
.item__meta time{flex:none}
.item__to{min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.message{padding:1.5rem;min-width:0}
.message__subject{margin:0 0 .75rem;font-size:1.5rem;line-height:1.25;overflow-wrap:anywhere}
.headers{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1.25rem;font-size:.9375rem}
.headers dt{color:var(--muted)}
.headers dd{margin:0;overflow-wrap:anywhere}
.panel{border:1px solid var(--border);border-radius:8px;padding:.75rem 1rem;margin-bottom:1.25rem;background:#f4f7fa}
.panel h2{margin:0 0 .25rem;font-size:.9375rem}
.links{margin:0;padding-left:1.25rem;overflow-wrap:anywhere}
.muted{margin:0;color:var(--muted)}
.preview{display:block;width:100%;height:44rem;border:1px solid var(--border);border-radius:8px;margin-bottom:1.25rem;background:#eef2f6}
summary{cursor:pointer;font-weight:600;font-size:.9375rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.875rem;margin:.75rem 0 0}
.empty{padding:2rem 1rem;text-align:center;color:var(--muted)}
.empty h1{color:var(--text);font-size:1.25rem}
@media (max-width:50rem){.layout{grid-template-columns:1fr;padding:1rem}.preview{height:36rem}}
`;
