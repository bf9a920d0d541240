// A document as a PDF the borrower can keep. A signed one: the text they signed, then a signature
// certificate that says who signed (the name typed and the account it belongs to), under which consent
// to sign electronically, how they had signed in, when, from where, and the text's SHA-256
// fingerprint, so anyone can check that the text is the one signed. Written once and stored; see
// borrower-documents.ts. Signatures made before a fact was recorded say "Not recorded" for it.
// One that needs no signature: the same pages without a certificate, and when it was reviewed.
// The portal's own words are in the borrower's language (certificate-words.ts); the document's text
// stays as the lender wrote it.

import { DEFAULT_LOCALE, type Locale } from '@customer-core/contracts';
import { certificateWordsOf } from './certificate-words.js';
import type { SignInEvidence } from './sign-in-evidence.js';

/** What any document's PDF is written from. */
export interface DocumentFacts {
  title: string;
  body: string;
  loanReference: string;
  product: string;
  lenderName: string;
  /** The language of the portal's words on it (the borrower's); English unless given. */
  locale?: Locale;
}

/** A document that needs no signature: when the borrower reviewed it (null: not yet). */
export interface ReviewedDocumentFacts extends DocumentFacts {
  reviewedAt: Date | null;
  /** The PDF's creation date when not reviewed (the loan's): nothing in it depends on when it is written. */
  writtenAt: Date;
}

export interface SignedDocumentFacts extends DocumentFacts {
  /** The name as the borrower typed it. */
  signatureName: string;
  signedAt: Date;
  /** The account that signed: its name and email address then (null before they were recorded). */
  signer: { name: string; email: string | null } | null;
  /** How the signer had signed in (null before it was recorded). */
  signIn: SignInEvidence | null;
  /** The consent to sign electronically the signature was made under (null before consents). */
  consent: { version: string; givenAt: Date } | null;
  /** null for a signature made before client addresses were recorded. */
  clientAddress: string | null;
  fingerprint: string;
}

const utc = (at: Date) =>
  at
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$|Z$/, ' UTC');

const MARGIN = 64;
const INK = '#1a1f2b';
const MUTED = '#5a6272';

/** A new PDF and the promise of its bytes once ended. */
async function newPdf(
  info: PDFKit.DocumentInfo,
): Promise<{ doc: PDFKit.PDFDocument; done: Promise<Buffer> }> {
  // Loaded when the first PDF is asked for: pdfkit and its fonts hold ~29 MB that no other request
  // needs, in every server process.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, info });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

/** The lender and loan, the title, then the text; `afterTitle` a line under the title (e.g. when reviewed). */
function writeDocument(doc: PDFKit.PDFDocument, facts: DocumentFacts, afterTitle?: string): void {
  doc.fillColor(MUTED).font('Helvetica').fontSize(10);
  doc.text(
    certificateWordsOf(facts.locale ?? DEFAULT_LOCALE).loanLine(
      facts.lenderName,
      facts.product,
      facts.loanReference,
    ),
  );
  doc.moveDown(0.5);
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(20).text(facts.title);
  if (afterTitle) doc.moveDown(0.3).fillColor(MUTED).font('Helvetica').fontSize(10).text(afterTitle);
  doc.fillColor(INK).moveDown(1);

  // The body's first paragraph repeats the title with the loan number: shown as a subheading.
  const [first, ...rest] = facts.body.split('\n\n');
  if (first) doc.font('Helvetica-Bold').fontSize(12).text(first).moveDown(0.8);
  doc.font('Helvetica').fontSize(11);
  for (const paragraph of rest) doc.text(paragraph, { lineGap: 2 }).moveDown(0.8);
}

/** The PDF of a document that needs no signature; the same bytes for the same facts. */
export async function renderReviewedDocumentPdf(facts: ReviewedDocumentFacts): Promise<Buffer> {
  const at = facts.reviewedAt ?? facts.writtenAt;
  const words = certificateWordsOf(facts.locale ?? DEFAULT_LOCALE);
  const { doc, done } = await newPdf({
    Title: words.fileTitle(facts.title, facts.loanReference, false),
    Author: facts.lenderName,
    CreationDate: at,
    ModDate: at,
  });
  writeDocument(doc, facts, facts.reviewedAt ? words.reviewedOn(utc(facts.reviewedAt)) : undefined);
  doc.end();
  return done;
}

/** The PDF's bytes. The creation date is the signing time, so nothing in it depends on when it is written. */
export async function renderSignedDocumentPdf(facts: SignedDocumentFacts): Promise<Buffer> {
  const words = certificateWordsOf(facts.locale ?? DEFAULT_LOCALE);
  const { labels } = words;
  const NOT_RECORDED = words.notRecorded;
  const { doc, done } = await newPdf({
    Title: words.fileTitle(facts.title, facts.loanReference, true),
    Author: facts.lenderName,
    Subject: words.signedBy(
      facts.signer
        ? `${facts.signer.name} (${facts.signer.email ?? words.noEmailAddress})`
        : facts.signatureName,
    ),
    CreationDate: facts.signedAt,
    ModDate: facts.signedAt,
  });
  writeDocument(doc, facts);
  doc.addPage();
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(16).text(words.heading);
  doc.moveDown(0.8);
  const field = (label: string, value: string, font = 'Helvetica') => {
    doc.fillColor(MUTED).font('Helvetica').fontSize(9).text(label.toUpperCase(), { characterSpacing: 0.5 });
    doc.fillColor(INK).font(font).fontSize(11).text(value).moveDown(0.7);
  };
  field(labels.document, words.documentOfLoan(facts.title, facts.loanReference));
  field(labels.signature, facts.signatureName);
  field(labels.accountName, facts.signer?.name ?? NOT_RECORDED);
  field(labels.accountEmail, facts.signer?.email ?? NOT_RECORDED);
  field(
    labels.consent,
    facts.consent ? words.consentGiven(utc(facts.consent.givenAt), facts.consent.version) : NOT_RECORDED,
  );
  const signIn = facts.signIn;
  field(
    labels.method,
    signIn?.method ? words.method(words.methods[signIn.method], signIn.amr?.join(', ') ?? '') : NOT_RECORDED,
  );
  field(labels.secondFactor, signIn?.secondFactor ? words.secondFactors[signIn.secondFactor] : NOT_RECORDED);
  field(labels.signedInAt, signIn?.at ? utc(signIn.at) : NOT_RECORDED);
  field(labels.signedAt, utc(facts.signedAt));
  field(labels.clientAddress, facts.clientAddress ?? NOT_RECORDED);
  field(labels.fingerprint, facts.fingerprint, 'Courier');
  doc.moveDown(0.5);
  doc.fillColor(MUTED).font('Helvetica').fontSize(9).text(words.fingerprintNote);
  doc.end();
  return done;
}
