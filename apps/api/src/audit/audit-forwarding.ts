import { createSocket } from 'node:dgram';
import { appendFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { connect } from 'node:net';
import type { AuditForwardingSettings } from '../config/config.js';
import type { AuditRecord } from './audit-record.js';

// Copies of the audit trail for a SIEM, as each record is appended: JSON lines to a file, and RFC 5424
// syslog over UDP or TCP (octet-counted, RFC 6587). The database stays the record: a copy that cannot
// be sent is logged and not retried, and `npm run cli -- audit --format jsonl` exports it again.

/** authpriv (10) and notice (5): security messages a SIEM keeps, of no alarm by themselves. */
const PRIORITY = 10 * 8 + 5;
const APP_NAME = 'customer-core';
const HOST =
  hostname()
    .replace(/[^\x21-\x7e]/g, '')
    .slice(0, 255) || '-';

/** One RFC 5424 message: the record as its JSON, the msgid its role (operator, borrower). */
export function syslogMessage(record: AuditRecord): string {
  const msgId = record.role.replace(/[^\x21-\x7e]/g, '').slice(0, 32) || '-';
  return `<${PRIORITY}>1 ${record.recordedAt} ${HOST} ${APP_NAME} ${process.pid} ${msgId} - \uFEFF${JSON.stringify(record)}`;
}

/** The copies to make of each record; none when nothing is set. */
export function auditForwarders(
  settings: AuditForwardingSettings,
): Array<(record: AuditRecord) => Promise<void>> {
  const forwarders: Array<(record: AuditRecord) => Promise<void>> = [];
  if (settings.file) {
    const file = settings.file;
    forwarders.push((record) => appendFile(file, `${JSON.stringify(record)}\n`, { mode: 0o600 }));
  }
  if (settings.syslog) {
    const url = new URL(settings.syslog);
    const port = Number(url.port) || (url.protocol === 'tcp:' ? 601 : 514);
    forwarders.push(url.protocol === 'tcp:' ? tcpSender(url.hostname, port) : udpSender(url.hostname, port));
  }
  return forwarders;
}

function udpSender(host: string, port: number) {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  socket.unref();
  return (record: AuditRecord) =>
    new Promise<void>((resolve, reject) =>
      socket.send(Buffer.from(syslogMessage(record)), port, host, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
}

/** One connection, opened when needed and again after it dropped; each message framed by its length. */
function tcpSender(host: string, port: number) {
  let socket: ReturnType<typeof connect> | null = null;
  return (record: AuditRecord) =>
    new Promise<void>((resolve, reject) => {
      if (!socket || socket.destroyed) {
        socket = connect({ host, port });
        socket.unref();
        socket.on('error', () => socket?.destroy());
      }
      const message = Buffer.from(syslogMessage(record));
      socket.write(`${message.length} ${message.toString()}`, (error) => (error ? reject(error) : resolve()));
    });
}
