import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

// A real SMTP server on 127.0.0.1 for the tests: it receives what the worker sends, can be stopped and
// started again on the same port (an outage), and can refuse recipients or answer slowly.

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The AUTH user name, when the client signed in. */
  user: string | undefined;
  /** Header names lower-cased; the first occurrence of each. */
  headers: Map<string, string>;
  messageId: string | undefined;
  idempotencyKey: string | undefined;
  subject: string | undefined;
  text: string | undefined;
  html: string | undefined;
  raw: string;
}

export interface SmtpSink {
  port: number;
  /** smtp://127.0.0.1:<port> */
  url: string;
  received: ReceivedMail[];
  /** A reply code to refuse a recipient with (4xx: try later, 5xx: never), or null to accept it. */
  refuseRecipient: (address: string) => number | null;
  /** How long each DATA takes to be accepted. */
  delayMs: number;
  /**
   * A relay's content filter: a reply (code and text, which may quote the message) to refuse a
   * received message with, or null to accept it.
   */
  refuseMessage: (mail: ReceivedMail) => { code: number; text: string } | null;
  /**
   * Holds the next message's acceptance until `release`: `arrived` resolves once its data is in, so a
   * test knows a delivery is in flight (the client waits for the relay's answer) without watching a clock.
   */
  holdNextMessage(): { arrived: Promise<void>; release(): void };
  /** How many messages each idempotency key arrived as. */
  countByKey(key: string): number;
  /** Stops listening: clients get "connection refused" until restart(). */
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  let hold: { arrive(): void; released: Promise<void> } | undefined;
  const sink: SmtpSink = {
    port: 0,
    url: '',
    received: [],
    refuseRecipient: () => null,
    delayMs: 0,
    refuseMessage: () => null,
    holdNextMessage: () => {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { arrive, released };
      return { arrived, release };
    },
    countByKey: (key) => sink.received.filter((m) => m.idempotencyKey === key).length,
    stop: async () => {
      const current = server;
      server = undefined;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    restart: async () => {
      if (!server) server = await listen(sink.port);
    },
    close: () => sink.stop(),
  };

  const options: SMTPServerOptions = {
    logger: false,
    disabledCommands: ['STARTTLS'],
    hideSTARTTLS: true,
    authOptional: true,
    allowInsecureAuth: true,
    closeTimeout: 50,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      const code = sink.refuseRecipient(address.address);
      if (code === null) return callback();
      const error = Object.assign(
        new Error(code >= 500 ? 'No such mailbox here' : 'Mailbox busy, try later'),
        {
          responseCode: code,
        },
      );
      return callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const held = hold;
        hold = undefined;
        if (!held) return void setTimeout(answer, sink.delayMs);
        held.arrive();
        void held.released.then(() => setTimeout(answer, sink.delayMs));
      });
      const answer = () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        const mail = parseMail(raw, envelope, session.user as string | undefined);
        const refusal = sink.refuseMessage(mail);
        if (refusal) return callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code }));
        sink.received.push(mail);
        callback();
      };
    },
  };

  const listen = (port: number) =>
    new Promise<SMTPServer>((resolve, reject) => {
      const smtp = new SMTPServer(options);
      smtp.on('error', () => {}); // client disconnects mid-session are expected in outage tests
      smtp.server.once('error', reject);
      smtp.listen(port, '127.0.0.1', () => resolve(smtp));
    });

  let server: SMTPServer | undefined = await listen(0);
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP sink has no port');
  sink.port = address.port;
  sink.url = `smtp://127.0.0.1:${address.port}`;
  return sink;
}

/** Just enough MIME for the tests: headers, multipart bodies, quoted-printable and base64. */
export function parseMail(raw: string, envelope: ReceivedMail['envelope'], user?: string): ReceivedMail {
  const { headers, body } = splitHeaders(raw);
  const parts = leafParts(headers, body);
  const partOf = (type: string) => parts.find((p) => (p.headers.get('content-type') ?? '').startsWith(type));
  const text = partOf('text/plain');
  const html = partOf('text/html');
  return {
    envelope,
    user,
    headers,
    messageId: headers.get('message-id'),
    idempotencyKey: headers.get('x-idempotency-key'),
    subject: headers.has('subject') ? decodeWords(headers.get('subject')!) : undefined,
    text: text && decodeBody(text.headers, text.body),
    html: html && decodeBody(html.headers, html.body),
    raw,
  };
}

function splitHeaders(raw: string) {
  const at = raw.indexOf('\r\n\r\n');
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? '' : raw.slice(at + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function leafParts(
  headers: Map<string, string>,
  body: string,
): Array<{ headers: Map<string, string>; body: string }> {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.startsWith('multipart/') || !boundary) return [{ headers, body }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .flatMap((chunk) => {
      const part = splitHeaders(chunk.replace(/^\r\n/, ''));
      return leafParts(part.headers, part.body.replace(/\r\n$/, ''));
    });
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body.replace(/\r\n/g, '\n');
}

function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n');
}

/** =?UTF-8?Q?…?= and =?UTF-8?B?…?= words in a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
