import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { startTestServer, type TestServer, untilAfter } from '../testing/index.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';

// `npm run cli -- mail`: the e-mail that gave up, listed without its text, and sent again once the
// relay takes it. A real SMTP server of the test's refuses the recipient for good first.

const OPERATOR_SECRET = 'operator-secret-for-cli-mail-tests-0123456789ab';

describe('npm run cli -- mail', () => {
  let sink: SmtpSink;
  let server: TestServer;
  before(async () => {
    sink = await startSmtpSink();
    server = await startTestServer('pglite', {
      SERVICE_CREDENTIALS: `ops:operator:${OPERATOR_SECRET}`,
      SMTP_URL: sink.url,
    });
  });
  after(async () => {
    await server?.close();
    await sink?.close();
  });
  const cli = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { PORTAL_URL: server.baseUrl, OPERATOR_CREDENTIAL: OPERATOR_SECRET };
    const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  };

  it('lists a message that gave up without its link, and sends it again', async () => {
    const to = `gone.${Date.now()}@example.com`;
    sink.refuseRecipient = (address) => (address === to ? 550 : null);
    const invited = await cli('invite', '--email', to, '--first-name', 'Rosa', '--last-name', 'Martinez');
    assert.equal(invited.code, 0, invited.stderr);

    const listed = await untilAfter('the invitation gave up', server.server.mail.afterPass, async () => {
      const answer = await cli('mail', 'dead');
      return answer.stdout.includes(to) && answer;
    });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^MESSAGE\s+TO\s+KIND\s+ATTEMPTS\s+GAVE UP \(UTC\)\s+LAST ERROR$/m);
    const line = listed.stdout.split('\n').find((l) => l.includes(to))!;
    assert.match(line, /^[0-9a-f-]{36}\s+\S+\s+\S+\s+1\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+.*550/);
    assert.match(listed.stdout, /^1 message gave up\.$/m);
    assert.doesNotMatch(listed.stdout, /https?:|token/i, 'no link, no token');
    const json = await cli('mail', 'dead', '--json');
    assert.doesNotMatch(json.stdout, /https?:/);
    const [dead] = JSON.parse(json.stdout) as Array<{ id: string; resendable: boolean }>;
    assert.equal(dead?.resendable, true);
    // Support's view of one address: what was sent there, and where each delivery is.
    const toThem = await cli('mail', 'sent', '--email', to);
    assert.match(toThem.stdout, /^QUEUED \(UTC\)\s+KIND\s+STATE\s+ATTEMPTS\s+SENT \(UTC\)\s+LAST ERROR$/m);
    assert.match(toThem.stdout, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+invitation\s+dead\s+1\s+-\s+.*550/m);
    assert.doesNotMatch(toThem.stdout, /https?:|token/i, 'no link, no token');

    sink.refuseRecipient = () => null; // the relay takes it now
    const resent = await cli('mail', 'resend', dead.id);
    assert.equal(resent.code, 0, resent.stderr);
    assert.equal(resent.stdout, 'Queued 1 message again; they go out at once.');
    const delivered = await untilAfter('delivered', server.server.mail.afterPass, () =>
      sink.received.find((m) => m.envelope.to.includes(to)),
    );
    assert.match(delivered.text ?? '', /https?:\/\//, 'the same message, link and all');
    assert.equal((await cli('mail', 'dead')).stdout, 'No e-mail has given up.');
    const [sent] = JSON.parse((await cli('mail', 'sent', '--email', to, '--json')).stdout) as Array<{
      status: string;
      sentAt: string | null;
    }>;
    assert.ok(sent?.status === 'sent' && sent.sentAt, JSON.stringify(sent));
    assert.equal(
      (await cli('mail', 'sent', '--email', `nobody.${Date.now()}@example.com`)).stdout.startsWith(
        'No e-mail to ',
      ),
      true,
    );
    // Sent now: named again, it is not queued twice.
    const again = await cli('mail', 'resend', dead.id);
    assert.match(again.stdout, /^Nothing queued again\.\nNot queued .*: [0-9a-f-]{36}$/);
    assert.equal((await cli('mail', 'resend', '--all')).stdout, 'Nothing queued again.');
  });

  it('refuses bad arguments with exit 2', async () => {
    for (const args of [
      ['mail'],
      ['mail', 'resend'],
      ['mail', 'resend', 'not-an-id'],
      ['mail', 'resend', '--all', '00000000-0000-4000-8000-000000000000'],
      ['mail', 'dead', '--all'],
      ['mail', 'purge'],
      ['mail', 'sent'],
      ['mail', 'sent', '--email', 'not-an-address'],
      ['mail', 'sent', '--email', 'a@b.co', 'extra'],
    ]) {
      const answer = await cli(...args);
      assert.equal(answer.code, 2, `${args.join(' ')}: ${answer.stdout}`);
      assert.notEqual(answer.stderr, '');
    }
  });
});
