// A document as a PDF the borrower can keep. A signed one: the text they signed, then a signature
// certificate that says who signed (the name typed and the account it belongs to), under which consent
// to sign electronically, how they had signed in, when, from where, and the text's SHA-256
// fingerprint, so anyone can check that the text is the one signed. Written once and stored; see
// borrower-documents.ts. Signatures made before a fact was recorded say "Not recorded" for it.
// One that needs no signature: the same pages without a certificate, and when it was reviewed.

import type { SignInEvidence } from './sign-in-evidence.js';

/** What any document's PDF is written from. */
export interface DocumentFacts {
  title: string;
  body: string;
  loanReference: string;
  product: string;
  lenderName: string;
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

const NOT_RECORDED = 'Not recorded';
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
  doc.text(`${facts.lenderName} · ${facts.product} · loan ${facts.loanReference}`);
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
  const { doc, done } = await newPdf({
    Title: `${facts.title} — loan ${facts.loanReference}`,
    Author: facts.lenderName,
    CreationDate: at,
    ModDate: at,
  });
  writeDocument(doc, facts, facts.reviewedAt ? `Reviewed on ${utc(facts.reviewedAt)}` : undefined);
  doc.end();
  return done;
}

/** The PDF's bytes. The creation date is the signing time, so nothing in it depends on when it is written. */
export async function renderSignedDocumentPdf(facts: SignedDocumentFacts): Promise<Buffer> {
  const { doc, done } = await newPdf({
    Title: `${facts.title} — loan ${facts.loanReference} (signed)`,
    Author: facts.lenderName,
    Subject: `Signed by ${facts.signer ? `${facts.signer.name} (${facts.signer.email ?? 'no email address'})` : facts.signatureName}`,
    CreationDate: facts.signedAt,
    ModDate: facts.signedAt,
  });
  writeDocument(doc, facts);
  doc.addPage();
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(16).text('Signature certificate');
  doc.moveDown(0.8);
  const field = (label: string, value: string, font = 'Helvetica') => {
    doc.fillColor(MUTED).font('Helvetica').fontSize(9).text(label.toUpperCase(), { characterSpacing: 0.5 });
    doc.fillColor(INK).font(font).fontSize(11).text(value).moveDown(0.7);
  };
  field('Document', `${facts.title}, loan ${facts.loanReference}`);
  field('Signature (name as typed)', facts.signatureName);
  field('Signer’s account name', facts.signer?.name ?? NOT_RECORDED);
  field('Signer’s account email address', facts.signer?.email ?? NOT_RECORDED);
  field(
    'Consent to sign electronically',
    facts.consent
      ? `Given ${utc(facts.consent.givenAt)} (text version ${facts.consent.version})`
      : NOT_RECORDED,
  );
  const signIn = facts.signIn;
  field(
    'Sign-in method',
    signIn?.method ? `${signIn.method} (amr: ${signIn.amr?.join(', ') || 'none'})` : NOT_RECORDED,
  );
  field('Second factor', signIn?.secondFactor ?? NOT_RECORDED);
  field('Signed in at', signIn?.at ? utc(signIn.at) : NOT_RECORDED);
  field('Signed at', utc(facts.signedAt));
  field('Client address', facts.clientAddress ?? NOT_RECORDED);
  field('Document fingerprint (SHA-256)', facts.fingerprint, 'Courier');
  doc.moveDown(0.5);
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(9)
    .text(
      'The fingerprint is the SHA-256 hash of the document’s text, exactly as signed, encoded as UTF-8. ' +
        'Any change to the text gives a different fingerprint.',
    );
  doc.end();
  return done;
}
