import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import type { AuditRecordView } from '@customer-core/contracts';
import { runCli } from '../src/cli/run.js';
import { uniqueEmail } from './support/joining.js';
import { operatorCli } from './support/operator-cli.js';

// `npm run cli -- audit`: the audit trail for operators (search, CSV and JSON lines, the chain's check),
// and --reason, which every command that calls the portal takes. Run in this process.

const OPERATOR_SECRET = 'operator-secret-for-cli-audit-tests-0123456789';

describe('npm run cli -- audit', () => {
  const { server, cli } = operatorCli('pglite', 'audit', OPERATOR_SECRET);
  const run = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      args,
      { PORTAL_URL: server().baseUrl, OPERATOR_CREDENTIAL: OPERATOR_SECRET },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  };

  it('keeps the --reason of a command with its calls, and lists, exports and checks the trail', async () => {
    const email = uniqueEmail('cli-audit');
    const reason = '=HYPERLINK("http://attacker.example","ticket 77")';
    const invited = await run(
      'invite',
      '--email',
      email,
      '--first-name',
      'Cleo',
      '--last-name',
      'Audit',
      '--reason',
      reason,
    );
    assert.equal(invited.code, 0, invited.stderr);

    const listed = await cli('--target', `email:${email}`);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^#\s+WHEN \(UTC\)\s+ACTOR\s+ACTION\s+TARGET\s+OUTCOME\s+REASON$/m);
    assert.match(
      listed.stdout,
      new RegExp(
        `service:ops\\s+POST /api/operator/invitations\\s+email:${email.replace('.', '\\.')}\\s+201`,
      ),
    );
    assert.match(listed.stdout, /^1 record\.$/m);

    const lines = (await cli('--target', `email:${email}`, '--format', 'jsonl')).stdout.split('\n');
    assert.equal(lines.length, 1);
    const record = JSON.parse(lines[0]!) as AuditRecordView;
    assert.deepEqual([record.actor, record.reason, record.outcome], ['service:ops', reason, 201]);

    const csv = (await cli('--target', `email:${email}`, '--format', 'csv')).stdout.split('\n');
    assert.equal(
      csv[0],
      'seq,recordedAt,actor,role,action,target,outcome,reason,clientAddress,requestId,request,before,after',
    );
    // A spreadsheet would run the reason as a formula: it is kept as text.
    assert.ok(csv[1]!.includes(`"'=HYPERLINK(""http://attacker.example"",""ticket 77"")"`), csv[1]);

    // The listing itself was a call, and is in the trail.
    const reads = await cli('--action', 'GET /api/operator/audit', '--format', 'jsonl', '--limit', '2');
    assert.equal(reads.stdout.split('\n').length, 2);

    const intact = await cli('--verify');
    assert.equal(intact.code, 0, intact.stderr);
    assert.match(intact.stdout, /^The audit trail is intact: \d+ records, 1 to \d+\.$/);
  });

  it('says where the chain breaks, with exit 1', async () => {
    const { db } = server().server;
    await sql`alter table audit_record disable trigger audit_record_append_only`.execute(db);
    await sql`delete from audit_record where seq = 2`.execute(db);
    await sql`alter table audit_record enable trigger audit_record_append_only`.execute(db);
    const broken = await cli('--verify');
    assert.equal(broken.code, 1);
    assert.equal(
      broken.stderr,
      'Error: The audit trail is broken: record 2 is missing. 1 record before it is intact.',
    );
  });

  it('refuses a bad reason, format, limit or time with exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--reason', 'x'.repeat(501)], /--reason: The reason must be at most 500 characters/],
      [['--format', 'xml'], /--format is one of table, csv, jsonl/],
      [['--limit', '0'], /--limit is a whole number/],
      [['--limit', 'many'], /--limit is a whole number/],
      [['--since', 'yesterday'], /--since: since is a time in ISO 8601/],
    ];
    for (const [args, message] of cases) {
      const refused = await cli(...args);
      assert.deepEqual(
        [refused.code, message.test(refused.stderr)],
        [2, true],
        `${args.join(' ')}: ${refused.stderr}`,
      );
    }
  });
});
