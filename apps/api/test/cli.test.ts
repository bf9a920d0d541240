import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  operatorEndpoints,
  BorrowerListSchema,
  LoanListSchema,
  LoanScheduleSchema,
  OperatorLoanSchema,
  SigningKeyRotationSchema,
  loanEndpoints,
} from '@customer-core/contracts';
import { runCli } from '../src/cli/run.js';
import { freePort, startTestServer, type TestServer } from '../testing/index.js';
import { call, newBorrowerToken } from './support/loans.js';
import { publicKeyIds } from './support/session.js';

// The operators' command line against a real portal. What only a process of its own shows (what it
// loads, its exit status, its output on stdout and stderr, one command against the portal) is checked
// so; the rest runs in this process (the same code, runCli, without a process start of some seconds).

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(ROOT, 'apps/api/src/cli/main.ts');
/** How the tests start node on the CLI's source (TypeScript through tsx, workspace packages from source). */
const NODE_ON_SOURCE = ['--conditions=source', '--import', 'tsx'];
const AUTOMATION_SECRET = 'automation-secret-for-cli-tests-0123456789';
/** A servicing system's credential: lookup tokens only. */
const SERVICING_SECRET = 'servicing-secret-for-cli-tests-0123456789';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with only these settings in its environment (none inherited from the test's). */
function cli(args: string[], env: Record<string, string>): Promise<Run> {
  const {
    PORTAL_URL: _p,
    PUBLIC_URL: _u,
    PORT: _port,
    OPERATOR_CREDENTIAL: _c,
    DATA_DIR: _d,
    ...inherited
  } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...NODE_ON_SOURCE, CLI, ...args],
      { cwd: ROOT, env: { ...inherited, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The same command line run in this process. */
async function cliInProcess(args: string[], env: Record<string, string>): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
  const text = (lines: string[]) => lines.map((line) => `${line}\n`).join('');
  return { code, stdout: text(out), stderr: text(err) };
}

describe("operators' command line as a process", () => {
  it("loads none of the server's packages: it is a client of the API", async () => {
    // Packages loaded through CommonJS are in require.cache: the server's (Fastify, pg, Koa under the
    // identity provider, argon2) would be, had the CLI reached them. Importing pg afterwards shows the
    // probe would see one.
    const probe = `
      import { createRequire } from 'node:module';
      const loaded = () => JSON.stringify(Object.keys(createRequire(import.meta.url).cache));
      await import(${JSON.stringify(CLI)});
      console.error('CLI ' + loaded());
      await import('pg');
      console.error('CONTROL ' + loaded());`;
    // Whatever the CLI makes of no command (its usage, exit 2), its imports have all run by then.
    const stderr = await new Promise<string>((resolve) =>
      execFile(
        process.execPath,
        [...NODE_ON_SOURCE, '--input-type=module', '-e', probe],
        { cwd: ROOT },
        (_error, _stdout, stderr) => resolve(stderr),
      ),
    );
    const listed = (label: string) => {
      const line = stderr.split('\n').find((l) => l.startsWith(`${label} `));
      assert.ok(line, stderr);
      return JSON.parse(line.slice(label.length + 1)) as string[];
    };
    const ofServer = (files: string[]) =>
      files.filter((file) =>
        /\/node_modules\/(fastify|pg|koa|@node-rs\/argon2|@fastify\/[^/]+)\//.test(file),
      );
    assert.ok(ofServer(listed('CONTROL')).length > 0, 'the probe sees a server package once loaded');
    assert.deepEqual(ofServer(listed('CLI')), []);
  });

  it('has help text: for the whole and for each command', async () => {
    const [help, bare, helpHere, bareHere, commandHelp, helpTopic] = await Promise.all([
      cli(['help'], {}),
      cli([], {}),
      cliInProcess(['help'], {}),
      cliInProcess([], {}),
      cliInProcess(['add-loan', '--help'], {}),
      cliInProcess(['help', 'update-loan'], {}),
    ]);
    assert.equal(help.code, 0);
    for (const command of [
      'invite',
      'add-loan',
      'update-loan',
      'record-instalment',
      'list-borrowers',
      'rotate-signing-key',
      'help',
    ])
      assert.match(help.stdout, new RegExp(`^  ${command}`, 'm'));
    assert.match(help.stdout, /OPERATOR_CREDENTIAL/);
    assert.equal(bare.code, 2, 'no command is a usage error');
    assert.match(bare.stderr, /Usage: npm run cli -- <command>/);
    // What the tests below read from runCli is what a process writes: its stdout, its stderr.
    assert.deepEqual([help.stdout, help.stderr], [helpHere.stdout, helpHere.stderr]);
    assert.deepEqual(
      [bare.code, bare.stdout, bare.stderr],
      [bareHere.code, bareHere.stdout, bareHere.stderr],
    );
    assert.equal(commandHelp.code, 0);
    assert.match(commandHelp.stdout, /--next-payment-date <date>/);
    assert.match(commandHelp.stdout, /ACTIVE \(default\), PAST DUE, PAID, CLOSED LOST or HIDDEN/);
    assert.equal(helpTopic.code, 0);
    assert.match(helpTopic.stdout, /--no-next-payment/);
  });

  it('exits 1 when no portal answers, saying so on stderr', async () => {
    const port = await freePort();
    const unreachable = await cli(['list-borrowers'], {
      PORTAL_URL: `http://127.0.0.1:${port}`,
      OPERATOR_CREDENTIAL: AUTOMATION_SECRET,
    });
    assert.equal(unreachable.code, 1);
    assert.match(
      unreachable.stderr,
      new RegExp(`^Error: No portal answers at http://127\\.0\\.0\\.1:${port}\\. `),
    );
    assert.doesNotMatch(unreachable.stderr, /credential/i);
  });
});

describe(`operators' command line`, () => {
  let server: TestServer;
  let dataDir: string;
  /** The CLI's settings for this portal: its address and a trusted system's credential. */
  let env: Record<string, string>;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'customer-core-cli-'));
    // As `npm start` runs it (development), with a credential for another trusted system configured.
    server = await startTestServer('pglite', {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      SERVICE_CREDENTIALS: `automation:operator:${AUTOMATION_SECRET},servicing:lookup-tokens:${SERVICING_SECRET}`,
    });
    env = { PORTAL_URL: server.baseUrl, OPERATOR_CREDENTIAL: AUTOMATION_SECRET };
  });
  after(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds a loan in dollars, and the borrower sees it', async () => {
    // As operators run it: a process of its own, against the portal.
    const added = await cli(
      [
        'add-loan',
        '--email',
        'cli.borrower@example.com',
        '--reference',
        'LN-CLI-1',
        '--product',
        'Equipment financing',
        '--amount',
        '250,000',
        '--balance',
        '125000.5',
        '--next-payment-date',
        '2031-04-01',
        '--next-payment-amount',
        '$4,812.07',
      ],
      env,
    );
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /^Added loan LN-CLI-1\./);
    assert.match(added.stdout, /Amount: +\$250,000\.00/);
    assert.match(added.stdout, /Balance: +\$125,000\.50/);
    assert.match(added.stdout, /Next payment: +\$4,812\.07 due 2031-04-01/);
    assert.match(added.stdout, /Status: +ACTIVE/);

    const token = await newBorrowerToken(server, 'cli.borrower@example.com');
    const { body } = await call(server.baseUrl, 'GET', loanEndpoints.loans.path, token);
    assert.deepEqual(
      LoanListSchema.parse(body).loans.map((l) => [
        l.reference,
        l.amountCents,
        l.balanceCents,
        l.nextPayment,
      ]),
      [['LN-CLI-1', 25_000_000, 12_500_050, { dueOn: '2031-04-01', amountCents: 481_207 }]],
    );
  });

  it('updates a loan, and prints JSON when asked', async () => {
    const added = await cliInProcess(
      [
        'add-loan',
        '--email=cli.update@example.com',
        '--reference=LN-CLI-2',
        '--product=Term loan',
        '--amount=90000',
        '--json',
      ],
      env,
    );
    assert.equal(added.code, 0, added.stderr);
    assert.equal(OperatorLoanSchema.parse(JSON.parse(added.stdout)).balanceCents, 9_000_000);

    const paid = await cliInProcess(
      ['update-loan', '--reference', 'LN-CLI-2', '--status', 'paid', '--balance', '0', '--no-next-payment'],
      env,
    );
    assert.equal(paid.code, 0, paid.stderr);
    assert.match(paid.stdout, /^Updated loan LN-CLI-2\./);
    assert.match(paid.stdout, /Status: +PAID/);
    assert.match(paid.stdout, /Next payment: +none/);

    const lateArgs = [
      'update-loan',
      '--reference',
      'LN-CLI-2',
      '--status',
      'past-due',
      '--next-payment-date',
      '2031-05-15',
      '--next-payment-amount',
      '1200',
    ];
    // Past due with nothing owed: refused, each contradiction named, and nothing changed.
    const contradictory = await cliInProcess(lateArgs, env);
    assert.equal(contradictory.code, 1);
    assert.match(
      contradictory.stderr,
      /would contradict each other: a PAST DUE loan has a balance: a loan paid off is PAID; the next payment must not be more than the balance\./,
    );
    const late = await cliInProcess([...lateArgs, '--balance', '45000', '--json'], env);
    assert.equal(late.code, 0, late.stderr);
    const loan = OperatorLoanSchema.parse(JSON.parse(late.stdout));
    assert.deepEqual(
      [loan.status, loan.balanceCents, loan.nextPayment],
      ['PAST DUE', 4_500_000, { dueOn: '2031-05-15', amountCents: 120_000 }],
    );
    // Past due without a missed instalment on record: said, as the borrower would miss it.
    assert.deepEqual(loan.warnings, [
      'The borrower sees this loan as past due, but not what is owed or since when: record the missed instalments (record-instalment).',
    ]);
    const told = await cliInProcess(
      ['update-loan', '--reference', 'LN-CLI-2', '--product', 'Term loan'],
      env,
    );
    assert.match(told.stdout, /\nWarning: The borrower sees this loan as past due, but not what is owed/);

    const unknown = await cliInProcess(['update-loan', '--reference', 'LN-CLI-404', '--status', 'PAID'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No loan has the reference LN-CLI-404\./);
    const taken = await cliInProcess(
      [
        'add-loan',
        '--email',
        'x@example.com',
        '--reference',
        'LN-CLI-2',
        '--product',
        'Term loan',
        '--amount',
        '1',
      ],
      env,
    );
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /LN-CLI-2 exists already/);
  });

  it("records a loan's instalments and their payment, and prints the schedule", async () => {
    const added = await cliInProcess(
      [
        'add-loan',
        '--email=cli.schedule@example.com',
        '--reference=LN-CLI-3',
        '--product=Term loan',
        '--amount=24000',
      ],
      env,
    );
    assert.equal(added.code, 0, added.stderr);
    const due = await cliInProcess(
      ['record-instalment', '--reference', 'LN-CLI-3', '--due-on', '2031-01-15', '--amount', '2,000.50'],
      env,
    );
    assert.equal(due.code, 0, due.stderr);
    assert.match(due.stdout, /^Recorded the instalment of loan LN-CLI-3 due 2031-01-15\./);
    assert.match(due.stdout, /2031-01-15 +\$2,000\.50 +upcoming/);

    const paid = await cliInProcess(
      [
        'record-instalment',
        '--reference=LN-CLI-3',
        '--due-on=2031-01-15',
        '--amount=2000.50',
        '--paid-on=2031-01-14',
        '--json',
      ],
      env,
    );
    assert.equal(paid.code, 0, paid.stderr);
    assert.deepEqual(LoanScheduleSchema.parse(JSON.parse(paid.stdout)).instalments, [
      { dueOn: '2031-01-15', amountCents: 200_050, paidOn: '2031-01-14', state: 'paid' },
    ]);

    const bad = await cliInProcess(
      ['record-instalment', '--reference', 'LN-CLI-3', '--due-on', '15/01/2031', '--amount', '10'],
      env,
    );
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--due-on: must be a date, YYYY-MM-DD/);
  });

  it('invites a borrower, who is then listed as invited', async () => {
    const invited = await cliInProcess(
      ['invite', '--email', 'cli.invited@example.com', '--first-name', 'Ivy', '--last-name', 'Invited'],
      env,
    );
    assert.equal(invited.code, 0, invited.stderr);
    assert.match(invited.stdout, /^Invited Ivy Invited <cli\.invited@example\.com>\./);
    assert.match(invited.stdout, /works until \d{4}-\d{2}-\d{2}T/);
    const { body } = await call(server.baseUrl, 'GET', operatorEndpoints.borrowers.path, AUTOMATION_SECRET);
    const borrower = BorrowerListSchema.parse(body).borrowers.find(
      (b) => b.email === 'cli.invited@example.com',
    );
    assert.equal(borrower?.state, 'invited');
  });

  it('lists borrowers as a table, or as JSON', async () => {
    const [table, asJson] = await Promise.all([
      cliInProcess(['list-borrowers'], env),
      cliInProcess(['list-borrowers', '--json'], env),
    ]);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.split('\n');
    assert.match(lines[0]!, /^E-MAIL +NAME +STATE +LOANS +SINCE$/);
    assert.ok(
      lines.some((line) => /^demo@example\.com +Dana Demo +registered +5 +\d{4}-\d{2}-\d{2}$/.test(line)),
    );
    assert.equal(asJson.code, 0, asJson.stderr);
    const borrowers = BorrowerListSchema.shape.borrowers.parse(JSON.parse(asJson.stdout));
    assert.ok(borrowers.some((b) => b.email === 'demo@example.com' && b.state === 'registered'));
  });

  it('rotates the signing key: the public keys gain the new one, and keep the earlier', async () => {
    const keysBefore = await publicKeyIds(server.baseUrl);
    const rotated = await cliInProcess(['rotate-signing-key'], env);
    assert.equal(rotated.code, 0, rotated.stderr);
    const activeKid = /signed with key ([0-9a-f-]{36})\./.exec(rotated.stdout)?.[1];
    assert.ok(activeKid, rotated.stdout);
    assert.match(rotated.stdout, /Earlier keys still verifying until their tokens expire: /);
    assert.deepEqual(await publicKeyIds(server.baseUrl), [...keysBefore, activeKid]);

    const leak = await cliInProcess(['rotate-signing-key', '--retire-earlier-keys-now', '--json'], env);
    assert.equal(leak.code, 0, leak.stderr);
    const rotation = SigningKeyRotationSchema.parse(JSON.parse(leak.stdout));
    assert.deepEqual(rotation.retiredKids, [...keysBefore, activeKid]);
    assert.deepEqual(await publicKeyIds(server.baseUrl), [rotation.activeKid]);
  });

  it('refuses bad arguments with exit status 2 and a message naming the option', async () => {
    const loan = [
      'add-loan',
      '--email',
      'bad@example.com',
      '--reference',
      'LN-CLI-BAD',
      '--product',
      'Term loan',
    ];
    const cases: Array<[string[], RegExp]> = [
      [
        [...loan, '--amount', 'lots'],
        /--amount must be an amount in dollars, e.g. 250000 or 1250\.50 \(not "lots"\)/,
      ],
      [[...loan, '--amount', '12.345'], /--amount must be an amount in dollars/],
      [
        [...loan, '--amount', '10', '--status', 'OPEN'],
        /--status must be one of ACTIVE, PAST DUE, PAID, CLOSED LOST, HIDDEN/,
      ],
      [
        [...loan, '--amount', '10', '--next-payment-date', '2031-02-30', '--next-payment-amount', '1'],
        /--next-payment-date: must be a date, YYYY-MM-DD/,
      ],
      [
        [...loan, '--amount', '10', '--next-payment-date', '2031-02-01'],
        /--next-payment-date needs --next-payment-amount/,
      ],
      [
        ['add-loan', '--email', 'not-an-address', '--reference', 'ln-1', '--product', 'T', '--amount', '1'],
        /--email: Invalid email address\.\n--reference: reference must be/,
      ],
      [['add-loan', '--reference', 'LN-CLI-BAD'], /add-loan needs --email, --product, --amount/],
      [[...loan, '--amount', '10', '--colour', 'blue'], /add-loan has no option --colour/],
      [[...loan, '--amount'], /--amount needs a value/],
      [['update-loan', '--reference', 'LN-CLI-1'], /update-loan changes nothing/],
      [
        [
          'update-loan',
          '--reference',
          'LN-CLI-1',
          '--no-next-payment',
          '--next-payment-date',
          '2031-01-01',
          '--next-payment-amount',
          '5',
        ],
        /either --no-next-payment or the next payment/,
      ],
      [
        ['invite', '--email', 'a@example.com', '--first-name', ' ', '--last-name', 'B'],
        /--first-name: First name is required\./,
      ],
      [['list-borrowers', 'now'], /list-borrowers takes options only, not "now"/],
      [['lend-money'], /Unknown command "lend-money"/],
    ];
    const runs = await Promise.all(cases.map(([args]) => cliInProcess(args, env)));
    for (const [i, run] of runs.entries()) {
      const [args, message] = cases[i]!;
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(' '));
      assert.equal(run.stdout, '');
    }
    const { body } = await call(server.baseUrl, 'GET', operatorEndpoints.borrowers.path, AUTOMATION_SECRET);
    assert.ok(!BorrowerListSchema.parse(body).borrowers.some((b) => b.email === 'bad@example.com'));
  });

  it('says when the portal refuses the credential, or its address is wrong', async () => {
    const [wrong, none, badUrl, outOfScope] = await Promise.all([
      cliInProcess(['list-borrowers'], {
        ...env,
        OPERATOR_CREDENTIAL: 'not-the-credential-not-the-credential',
      }),
      cliInProcess(['list-borrowers'], {
        PORTAL_URL: server.baseUrl,
        DATA_DIR: path.join(dataDir, 'elsewhere'),
      }),
      cliInProcess(['list-borrowers'], { ...env, PORTAL_URL: 'localhost:8080' }),
      cliInProcess(['list-borrowers'], { ...env, OPERATOR_CREDENTIAL: SERVICING_SECRET }),
    ]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /refused the operator credential\. Set OPERATOR_CREDENTIAL/);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /No operator credential\. Set OPERATOR_CREDENTIAL/);
    assert.match(none.stderr, /elsewhere\/operator-credential/);
    assert.equal(badUrl.code, 2);
    assert.match(badUrl.stderr, /PORTAL_URL must be the portal's http\(s\) address/);
    assert.equal(outOfScope.code, 1);
    assert.match(outOfScope.stderr, /not for operators' calls\. Set OPERATOR_CREDENTIAL .* `operator` scope/);
  });

  it('finds the portal as the server derives its address: PORT, else PUBLIC_URL', async () => {
    const { port } = new URL(server.baseUrl);
    const [byPort, byPublicUrl, nobodyThere, badPort] = await Promise.all([
      cliInProcess(['list-borrowers', '--json'], { PORT: port, OPERATOR_CREDENTIAL: AUTOMATION_SECRET }),
      cliInProcess(['list-borrowers', '--json'], {
        PORT: '1',
        PUBLIC_URL: server.baseUrl,
        OPERATOR_CREDENTIAL: AUTOMATION_SECRET,
      }),
      freePort().then((free) =>
        cliInProcess(['list-borrowers'], { PORT: String(free), OPERATOR_CREDENTIAL: AUTOMATION_SECRET }),
      ),
      cliInProcess(['list-borrowers'], { PORT: 'eighty', OPERATOR_CREDENTIAL: AUTOMATION_SECRET }),
    ]);
    assert.equal(byPort.code, 0, byPort.stderr);
    assert.ok(BorrowerListSchema.shape.borrowers.safeParse(JSON.parse(byPort.stdout)).success);
    assert.equal(byPublicUrl.code, 0, byPublicUrl.stderr);
    assert.equal(nobodyThere.code, 1);
    assert.match(nobodyThere.stderr, /^Error: No portal answers at http:\/\/localhost:\d+\. /);
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /PORT/);
  });

  it('works with no setup against a portal run as npm start runs it: the embedded credential', async () => {
    const file = path.join(dataDir, 'operator-credential');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const secret = readFileSync(file, 'utf8').trim();
    assert.match(secret, /^[\w-]{43}$/, '32 random bytes, base64url');
    const run = await cliInProcess(['list-borrowers', '--json'], {
      PORTAL_URL: server.baseUrl,
      DATA_DIR: dataDir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(Array.isArray(JSON.parse(run.stdout)));

    // A file that does not hold a credential is reported, not sent.
    const short = mkdtempSync(path.join(dataDir, 'short-'));
    writeFileSync(path.join(short, 'operator-credential'), 'too-short\n');
    const refused = await cliInProcess(['list-borrowers'], { PORTAL_URL: server.baseUrl, DATA_DIR: short });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /must hold a secret of at least 32 characters/);
  });
});
