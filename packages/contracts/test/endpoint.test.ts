import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import {
  ApiErrorCodeSchema,
  accountEndpoints,
  endpoint,
  errorResponses,
  successAnswer,
} from '@customer-core/contracts';

const signDocument = endpoint({
  method: 'POST',
  path: '/api/borrower/loans/:loanId/documents/:documentId/sign',
  tag: 'borrower',
  summary: 'Sign a document',
  access: 'borrower',
  body: z.object({ signatureName: z.string() }),
  responses: { 200: z.object({ signed: z.literal(true) }) },
  errors: { 400: ['not_reviewed'], 409: ['already_signed'] },
});

describe('endpoint: one definition of a call', () => {
  it('takes its path parameters from its path, as any text, and fills them in encoded', () => {
    assert.deepEqual(signDocument.params.parse({ loanId: 'l 1', documentId: 'd/2' }), {
      loanId: 'l 1',
      documentId: 'd/2',
    });
    assert.equal(signDocument.params.safeParse({ loanId: 'l1' }).success, false);
    assert.equal(
      signDocument.href({ loanId: 'l 1', documentId: 'd/2' }),
      '/api/borrower/loans/l%201/documents/d%2F2/sign',
    );
  });

  it("adds the access check's and the generic error codes to its own, each status once", () => {
    assert.deepEqual(signDocument.errors[400], ['bad_request', 'malformed_token', 'not_reviewed']);
    assert.deepEqual(signDocument.errors[401], ['unauthorized', 'invalid_token']);
    assert.deepEqual(signDocument.errors[409], ['already_signed']);
    assert.deepEqual(signDocument.errors[429], ['too_many_requests']);
    // 403: a staff console's token, at any borrower's call.
    assert.deepEqual(signDocument.errors[403], ['forbidden']);
  });

  it('answers each status only with the codes declared for it', () => {
    const answers = errorResponses(signDocument);
    assert.ok(answers[409]!.safeParse({ error: 'already_signed', message: 'Signed already.' }).success);
    assert.equal(
      answers[409]!.safeParse({ error: 'not_reviewed', message: 'Review it first.' }).success,
      false,
    );
    assert.equal(answers[400]!.safeParse({ error: 'made_up', message: 'x' }).success, false);
  });

  it('checks a success answer with the schema of its lowest 2xx status, a 202 too', () => {
    assert.ok(successAnswer(signDocument).safeParse({ signed: true }).success);
    assert.equal(successAnswer(signDocument).safeParse({ signed: false }).success, false);
    assert.ok(successAnswer(accountEndpoints.changeEmail).safeParse({ linkSent: true }).success);
  });

  it('knows every error code of the API as one closed set', () => {
    assert.ok(ApiErrorCodeSchema.safeParse('step_up_required').success);
    assert.equal(ApiErrorCodeSchema.safeParse('anything_else').success, false);
  });
});
