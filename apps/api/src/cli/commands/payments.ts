import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CalendarDateSchema, operatorPaymentEndpoints, type PaymentFileView } from '@customer-core/contracts';
import { createOwnerOnlyFile } from '../../config/owner-only-file.js';
import { usageError } from '../cli-error.js';
import { table, text, utcCell as when, validated, type Command } from '../command.js';
import { dollarsOf as dollars } from '../money.js';

const USAGE = 'See: npm run cli -- payments --help';

/** The file for the bank and its manifest, beside each other in the outbox folder, owner-only. */
function writeOutbox(folder: string, file: PaymentFileView, content: string): string {
  const target = path.resolve(folder, file.fileName);
  createOwnerOnlyFile(target, content);
  const manifest = {
    file: file.fileName,
    sha256: file.sha256,
    creationDay: file.creationDay,
    fileIdModifier: file.fileIdModifier,
    batches: file.batchCount,
    entries: file.entryCount,
    entryHash: file.entryHash,
    debitTotalCents: file.debitTotalCents,
    creditTotalCents: file.creditTotalCents,
  };
  createOwnerOnlyFile(`${target}.manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  return target;
}

export const payments: Command = {
  name: 'payments',
  summary: "Write the lender's bank files, hand them over, settle them and read the bank's returns",
  help: `Usage: npm run cli -- payments run [--through <YYYY-MM-DD>] [--outbox <folder>]
       npm run cli -- payments files [--json]
       npm run cli -- payments export <file id> --outbox <folder> [--force]
       npm run cli -- payments settle <file id>
       npm run cli -- payments returns <returns file>

Borrowers' payments go to the lender's bank as NACHA files of CCD debits (and the micro-deposits
that verify a new bank account). The portal runs payments itself each banking day at PAYMENTS_CUTOFF
(in PAYMENTS_TIME_ZONE); these commands do it on demand, and hand the files over.

  run       Makes autopay's debits and reminders, then a file of everything due: the debits the
            bank needs today (effective the next banking day), and with --through, those effective
            up to that day too. With --outbox, exports it there at once.
  files     The latest files: their totals, whether exported and settled
  export    Writes the file and its manifest (counts, totals, SHA-256) to the outbox folder, owner-
            only, for the transfer to the bank. A file is exported once; --force (with --reason)
            writes it again when the bank never got it
  settle    The bank settled the file: its payments are posted to their loans
  returns   Reads the bank's returns file: each returned payment is marked with its code and the
            borrower told; an account a return speaks against is disabled (R02-R04, R16, R20) and an
            unauthorized one (R05, R07, R08, R10, R11, R29) also turns autopay off`,
  options: {
    through: { type: 'string' },
    outbox: { type: 'string' },
    force: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  positionals: ['run', 'files', 'export', 'settle', 'returns'],
  async run(values, { portal, print, positionals }) {
    const [action, argument, ...extra] = positionals;
    if (extra.length > 0) throw usageError(`payments ${action} takes at most one argument. ${USAGE}`);
    const needsArgument = ['export', 'settle', 'returns'].includes(action ?? '');
    if (needsArgument !== (argument !== undefined))
      throw usageError(
        needsArgument
          ? `payments ${action} needs ${action === 'returns' ? 'a file' : 'a file id'}. ${USAGE}`
          : `payments ${action ?? ''} takes no argument. ${USAGE}`,
      );
    const outbox = text(values, 'outbox');

    switch (action) {
      case 'run': {
        const through = text(values, 'through');
        const body =
          through === undefined
            ? {}
            : { through: validated(CalendarDateSchema, through, { '': '--through' }) };
        const { file } = await portal.call(operatorPaymentEndpoints.run, { body });
        if (!file) return print('Nothing is due to go to the bank.');
        print(
          `Wrote ${file.fileName}: ${file.entryCount} entries, debits ${dollars(file.debitTotalCents)}, credits ${dollars(file.creditTotalCents)} (file ${file.id}).`,
        );
        if (!outbox)
          return print(`Export it for the bank: npm run cli -- payments export ${file.id} --outbox <folder>`);
        const exported = await portal.call(operatorPaymentEndpoints.exportFile, {
          params: { fileId: file.id },
          body: { force: false },
        });
        return print(`Exported to ${writeOutbox(outbox, exported.file, exported.content)}.`);
      }
      case 'files': {
        const { files } = await portal.call(operatorPaymentEndpoints.files, {});
        if (values.json) return print(JSON.stringify(files, null, 2));
        if (files.length === 0) return print('No payment file yet.');
        const rows = files.map((f) => [
          f.id,
          f.fileName,
          String(f.entryCount),
          dollars(f.debitTotalCents),
          dollars(f.creditTotalCents),
          when(f.exportedAt),
          when(f.settledAt),
        ]);
        for (const line of table(
          ['FILE', 'NAME', 'ENTRIES', 'DEBITS', 'CREDITS', 'EXPORTED', 'SETTLED'],
          rows,
        ))
          print(line);
        return;
      }
      case 'export': {
        if (!outbox) throw usageError(`payments export needs --outbox <folder>. ${USAGE}`);
        const exported = await portal.call(operatorPaymentEndpoints.exportFile, {
          params: { fileId: argument! },
          body: { force: values.force === true },
        });
        return print(`Exported to ${writeOutbox(outbox, exported.file, exported.content)}.`);
      }
      case 'settle': {
        const { settled } = await portal.call(operatorPaymentEndpoints.settleFile, {
          params: { fileId: argument! },
        });
        return print(`Settled: ${settled} payment${settled === 1 ? '' : 's'} posted to their loans.`);
      }
      case 'returns': {
        let content: string;
        try {
          content = readFileSync(argument!, 'latin1');
        } catch {
          throw usageError(`Cannot read ${argument}.`);
        }
        const { returns } = await portal.call(operatorPaymentEndpoints.returns, { body: { content } });
        if (returns.length === 0) return print('The file has no returns.');
        const rows = returns.map((r) => [
          r.originalTrace,
          r.returnCode,
          dollars(r.amountCents),
          r.matched === null ? 'MATCHES NOTHING: look into it' : r.matched,
          r.paymentReference ?? '-',
        ]);
        for (const line of table(['TRACE', 'CODE', 'AMOUNT', 'MATCHED', 'PAYMENT'], rows)) print(line);
        return;
      }
      default:
        throw usageError(`Unknown payments action. ${USAGE}`);
    }
  },
};
