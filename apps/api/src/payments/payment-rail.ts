import { randomInt } from 'node:crypto';
import {
  readReturnsFile,
  writeNachaFile,
  type NachaBatch,
  type NachaEntry,
  type Originator,
} from './nacha-file.js';

// The payments port: where the day's debits and micro-deposits go to be collected, and how what came
// back is read. The bundled adapter writes a NACHA file for the lender's bank and reads the bank's
// returns file; a processor's adapter (its API for debits, its events for returns) fits the same shape.

export interface OutgoingDebit {
  id: string;
  reference: string;
  amountCents: number;
  effectiveOn: string;
  holderName: string;
  routingNumber: string;
  accountType: 'checking' | 'savings';
  accountNumber: string;
}

export type OutgoingVerification = Omit<OutgoingDebit, 'reference' | 'amountCents' | 'effectiveOn'>;

export interface Submission {
  createdAt: Date;
  /** The file's place among the day's: A-Z, then 0-9. */
  fileIdModifier: string;
  /** The effective date of micro-deposits (the next banking day). */
  verificationsOn: string;
  debits: OutgoingDebit[];
  verifications: OutgoingVerification[];
  /** One per entry: debits first, then each verification's three (two credits, their offset). */
  traceSequences: number[];
}

export interface Submitted {
  /** The file for the bank, with its control totals. */
  file: {
    text: string;
    sha256: string;
    batchCount: number;
    entryCount: number;
    entryHash: string;
    debitTotalCents: number;
    creditTotalCents: number;
  };
  debitTraces: Map<string, string>;
  verifications: Map<string, { traces: string[]; amounts: [number, number] }>;
}

export interface ReturnedItem {
  originalTrace: string;
  returnCode: string;
  amountCents: number;
}

export interface PaymentRail {
  /** How many trace numbers a submission of these needs. */
  entriesOf(debits: number, verifications: number): number;
  submit(submission: Submission): Submitted;
  readReturns(input: string): ReturnedItem[];
}

/** Two distinct amounts of 1 to 49 cents: under a dollar each, hard to guess. */
export function microAmounts(): [number, number] {
  const first = randomInt(1, 50);
  let second = randomInt(1, 50);
  while (second === first) second = randomInt(1, 50);
  return [first, second];
}

const credit = (type: 'checking' | 'savings') => (type === 'checking' ? '22' : '32');
const debit = (type: 'checking' | 'savings') => (type === 'checking' ? '27' : '37');

export function nachaRail(originator: Originator, timeZone: string): PaymentRail {
  return {
    entriesOf: (debits, verifications) => debits + verifications * 3,

    submit(submission) {
      const sequences = [...submission.traceSequences];
      const take = () => sequences.shift()!;
      const byDay = new Map<string, NachaEntry[]>();
      for (const payment of submission.debits) {
        const entries = byDay.get(payment.effectiveOn) ?? [];
        entries.push({
          transactionCode: debit(payment.accountType),
          routingNumber: payment.routingNumber,
          accountNumber: payment.accountNumber,
          amountCents: payment.amountCents,
          identification: payment.reference,
          receiverName: payment.holderName,
          traceSequence: take(),
        });
        byDay.set(payment.effectiveOn, entries);
      }
      const verificationEntries: NachaEntry[] = [];
      const drawn: [string, [number, number]][] = [];
      for (const account of submission.verifications) {
        const amounts = microAmounts();
        drawn.push([account.id, amounts]);
        const party = {
          routingNumber: account.routingNumber,
          accountNumber: account.accountNumber,
          identification: 'VERIFY',
          receiverName: account.holderName,
        };
        verificationEntries.push(
          {
            ...party,
            transactionCode: credit(account.accountType),
            amountCents: amounts[0],
            traceSequence: take(),
          },
          {
            ...party,
            transactionCode: credit(account.accountType),
            amountCents: amounts[1],
            traceSequence: take(),
          },
          {
            ...party,
            transactionCode: debit(account.accountType),
            amountCents: amounts[0] + amounts[1],
            traceSequence: take(),
          },
        );
      }
      // Debits in the order given, grouped by their effective date (a batch has one).
      const debitDays = [...byDay.keys()];
      const batches: NachaBatch[] = [
        ...debitDays.map((day) => ({
          purpose: 'payments' as const,
          effectiveOn: day,
          entries: byDay.get(day)!,
        })),
        { purpose: 'verification', effectiveOn: submission.verificationsOn, entries: verificationEntries },
      ];
      const written = writeNachaFile({
        originator,
        createdAt: submission.createdAt,
        fileIdModifier: submission.fileIdModifier,
        batches,
        timeZone,
      });
      // writeNachaFile gives traces batch by batch: each debit day's, then the verifications'.
      const traces = [...written.traces];
      const debitTraces = new Map<string, string>();
      const ordered = debitDays.flatMap((day) => submission.debits.filter((d) => d.effectiveOn === day));
      for (const payment of ordered) debitTraces.set(payment.id, traces.shift()!);
      const verifications = new Map<string, { traces: string[]; amounts: [number, number] }>();
      for (const [id, amounts] of drawn) verifications.set(id, { traces: traces.splice(0, 3), amounts });
      return {
        file: {
          text: written.text,
          sha256: written.sha256,
          batchCount: written.batchCount,
          entryCount: written.entryCount,
          entryHash: written.entryHash,
          debitTotalCents: written.debitTotalCents,
          creditTotalCents: written.creditTotalCents,
        },
        debitTraces,
        verifications,
      };
    },

    readReturns: (input) =>
      readReturnsFile(input).returns.map(({ originalTrace, returnCode, amountCents }) => ({
        originalTrace,
        returnCode,
        amountCents,
      })),
  };
}
