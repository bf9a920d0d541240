import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { auditEndpoints, operatorEndpoints, type AuditRecordView } from '@customer-core/contracts';
import type { AuditRecord } from '../src/audit/audit-record.js';
import { auditForwarders } from '../src/audit/audit-forwarding.js';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { call, OPERATOR_ENV, OPERATOR_SECRET } from './support/loans.js';

// Copies of the audit trail for a SIEM: JSON lines appended to a file, RFC 5424 syslog over UDP, and
// over TCP with octet counting; each the record the trail holds.

const RFC5424 = /^<85>1 (\S+) (\S+) customer-core (\d+) (\S+) - \uFEFF(\{.*\})$/s;

/** The messages of an octet-counted stream: `<length in bytes> <message>`, one after another. */
function framesOf(stream: Buffer): string[] {
  const frames: string[] = [];
  for (let at = 0; at < stream.length;) {
    const space = stream.indexOf(0x20, at);
    if (space < 0) break;
    const end = space + 1 + Number(stream.subarray(at, space).toString());
    if (end > stream.length) break;
    frames.push(stream.subarray(space + 1, end).toString('utf8'));
    at = end;
  }
  return frames;
}

describe('audit records forwarded for a SIEM', () => {
  let server: TestServer;
  let folder: string;
  const syslog = createSocket('udp4');
  const datagrams: string[] = [];

  before(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'audit-forward-'));
    syslog.on('message', (message) => datagrams.push(message.toString('utf8')));
    syslog.bind(0, '127.0.0.1');
    await once(syslog, 'listening');
    server = await startTestServer('pglite', {
      ...OPERATOR_ENV,
      AUDIT_FORWARD_FILE: path.join(folder, 'audit.jsonl'),
      AUDIT_SYSLOG_URL: `udp://127.0.0.1:${syslog.address().port}`,
    });
  });
  after(async () => {
    await server?.close();
    syslog.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('appends each record to the file as a JSON line, and sends it as RFC 5424 syslog', async () => {
    const looked = await call(
      server.baseUrl,
      'GET',
      `${operatorEndpoints.sessions.path}?email=nobody@example.com`,
      OPERATOR_SECRET,
    );
    assert.equal(looked.status, 404);
    const listed = await call(
      server.baseUrl,
      'GET',
      `${auditEndpoints.records.path}?order=oldest`,
      OPERATOR_SECRET,
    );
    const [record] = (listed.body as { records: AuditRecordView[] }).records;

    const lines = readFileSync(path.join(folder, 'audit.jsonl'), 'utf8').trimEnd().split('\n');
    assert.deepEqual(JSON.parse(lines[0]!), record);
    // The datagram is sent before the call's answer: it has arrived, or is on its way over loopback.
    while (datagrams.length === 0) await once(syslog, 'message');
    const [, timestamp, , , msgId, json] = RFC5424.exec(datagrams[0]!) ?? [];
    assert.deepEqual([timestamp, msgId, JSON.parse(json!)], [record!.recordedAt, 'operator', record]);
  });

  it('frames each message by its length over TCP (RFC 6587), on one connection', async () => {
    const received: Buffer[] = [];
    let arrived = () => {};
    const sockets: Socket[] = [];
    const collector = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (chunk) => {
        received.push(chunk);
        arrived();
      });
    });
    collector.listen(0, '127.0.0.1');
    await once(collector, 'listening');
    const { port } = collector.address() as AddressInfo;
    const [forward] = auditForwarders({ file: null, syslog: `tcp://127.0.0.1:${port}` });
    const record = (seq: number): AuditRecord => ({
      seq,
      recordedAt: '2026-11-27T08:00:00.000Z',
      actor: 'borrower:1',
      role: 'borrower',
      action: 'PUT /api/account/language',
      target: 'borrower:1',
      outcome: 200,
      reason: 'ünïcode counts in bytes',
      clientAddress: '192.0.2.1',
      requestId: `r${seq}`,
    });
    await forward!(record(1));
    await forward!(record(2));
    while (framesOf(Buffer.concat(received)).length < 2)
      await new Promise<void>((resolve) => (arrived = resolve));
    assert.deepEqual(
      framesOf(Buffer.concat(received)).map(
        (frame) => (JSON.parse(RFC5424.exec(frame)![5]!) as AuditRecord).requestId,
      ),
      ['r1', 'r2'],
    );
    collector.close();
    for (const socket of sockets) socket.destroy();
  });

  it('refuses a syslog address that is not udp:// or tcp://', () => {
    assert.throws(
      () => loadConfig({ AUDIT_SYSLOG_URL: 'http://siem.example:514' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /AUDIT_SYSLOG_URL: must be udp:\/\/host:port or tcp:\/\/host:port/.test(error.message),
    );
  });
});
