import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import {
  AuthnAnswer,
  EMAIL_FACTOR,
  LogEventSchema,
  OktaErrorSchema,
  SessionAnswer,
  TOTP_FACTOR,
  type ActivateFactorBody,
  type AuthnBody,
  type ChangePasswordBody,
  type CreateUserBody,
  type EnrolFactorBody,
  type OktaError,
  type OktaFactorFields,
  type OktaUserFields,
  type StateTokenBody,
  type UpdateUserBody,
  oktaLocaleOf,
} from '@customer-core/contracts/server';
import { DEFAULT_LOCALE, matchLocale } from '@customer-core/contracts';
import {
  DirectoryUnavailableError,
  securityEventOf,
  type Directory,
  type DirectoryRefusal,
  type DirectoryFactor,
  type DirectorySecurityEvent,
  type DirectoryUser,
  type NewDirectoryUser,
} from './directory.js';

export interface OktaDirectoryOptions {
  /** The org's authorization server, e.g. https://lender.okta.com/oauth2/default; the org is its origin. */
  issuer: string;
  /** An API token (SSWS) of an administrator who may manage the org's users. Never logged. */
  apiToken: string;
  logger: FastifyBaseLogger;
  /** How long one call may take; default 10 s. */
  timeoutMs?: number;
  /** Calls answered 429 are retried after the org's reset time, at most this often; default 3. */
  rateLimitRetries?: number;
  /** Waits out a rate limit: a timer by default (tests move the org's window instead of waiting). */
  wait?: (ms: number) => Promise<void>;
}

// A borrower is waiting on the answer: a window that resets later than this is answered 503 at once.
const MAX_RATE_LIMIT_WAIT_MS = 5_000;

/** A hosted Okta org through its Management API (Users and Sessions) and its authn API. */
export function oktaDirectory(options: OktaDirectoryOptions): Directory {
  const org = new URL(options.issuer).origin;
  const retries = options.rateLimitRetries ?? 3;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const wait = options.wait ?? delay;

  /** `checksCredentials`: a 403 is the org refusing the user's own credentials, for the caller to read. */
  async function call(
    method: string,
    path: string,
    body?: unknown,
    authenticated = true,
    checksCredentials = false,
  ): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${org}${path}`, {
          method,
          headers: {
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(authenticated ? { authorization: `SSWS ${options.apiToken}` } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        options.logger.warn({ method, path: redactedPath(path), err: describe(error) }, 'Okta call failed');
        throw new DirectoryUnavailableError('no answer');
      }
      const waitMs =
        response.status === 429 && rateLimitWait(response.headers.get('x-rate-limit-reset'), attempt);
      if (waitMs !== false && waitMs <= MAX_RATE_LIMIT_WAIT_MS && attempt < retries) {
        options.logger.warn({ method, path: redactedPath(path), waitMs }, 'Okta rate limit: waiting');
        await response.body?.cancel();
        await wait(waitMs);
        continue;
      }
      if (response.status === 429 || response.status >= 500) {
        options.logger.warn(
          { method, path: redactedPath(path), status: response.status },
          'Okta call failed',
        );
        await response.body?.cancel();
        throw new DirectoryUnavailableError(`status ${response.status}`);
      }
      // (An authn call answers 401 for a wrong password: that is the caller's to read.)
      if (authenticated && (response.status === 401 || (response.status === 403 && !checksCredentials))) {
        // A wrong or revoked API token, or one without the scopes: the operator must act.
        options.logger.error(
          { method, path: redactedPath(path), status: response.status },
          'Okta refused the API token',
        );
        await response.body?.cancel();
        throw new DirectoryUnavailableError('the API token was refused');
      }
      return response;
    }
  }

  async function findUser(idOrLogin: string): Promise<DirectoryUser | undefined> {
    const response = await call('GET', `/api/v1/users/${encodeURIComponent(idOrLogin)}`);
    if (response.status === 404) return void (await response.body?.cancel());
    return toUser(await expectOk(response));
  }

  /**
   * A 400 from a write: the login taken or the password refused by the org's policy, of those the call
   * reads (`readable`). Any other refusal is a fault of the request: thrown.
   */
  async function refusal<P extends 'login_taken' | 'password_refused'>(
    response: Response,
    readable: readonly P[],
  ): Promise<Extract<DirectoryRefusal, { problem: P }>> {
    const error = await errorOf(response);
    const causes = (error.errorCauses ?? []).map((cause) => cause.errorSummary);
    const password = causes.find((cause) => /^password:/i.test(cause));
    const refused: DirectoryRefusal | undefined = causes.some(
      (cause) => /^login:/i.test(cause) && /already exists/i.test(cause),
    )
      ? { ok: false, problem: 'login_taken' }
      : password
        ? {
            ok: false,
            problem: 'password_refused',
            requirements: requirementsOf(password.replace(/^password:\s*/i, '')),
          }
        : undefined;
    if (refused && (readable as readonly string[]).includes(refused.problem))
      return refused as Extract<DirectoryRefusal, { problem: P }>;
    throw new Error(`Okta refused the request: ${error.errorCode ?? response.status} ${causes.join('; ')}`);
  }

  async function listFactors(userId: string): Promise<DirectoryFactor[]> {
    const response = await call('GET', factorsPath(userId));
    if (response.status === 404) return (await response.body?.cancel(), []);
    const factors = (await expectOk(response)) as OktaFactorFields[];
    return Array.isArray(factors) ? factors.map(toFactor) : [];
  }

  return {
    issuer: options.issuer,
    factorAfterLink: false,
    idTokensNameSessions: false,
    findById: findUser,
    findByLogin: findUser,
    async create(user: NewDirectoryUser) {
      const response = await call('POST', '/api/v1/users?activate=true', {
        profile: { firstName: user.firstName, lastName: user.lastName, email: user.login, login: user.login },
        credentials: { password: { value: user.password } },
      } satisfies z.input<typeof CreateUserBody>);
      if (response.status === 400) return refusal(response, ['login_taken', 'password_refused']);
      return { ok: true, user: toUser(await expectOk(response)) };
    },
    async setPassword(id, password) {
      const response = await call('POST', `/api/v1/users/${encodeURIComponent(id)}`, {
        credentials: { password: { value: password } },
      } satisfies z.input<typeof UpdateUserBody>);
      if (response.status === 400) return refusal(response, ['password_refused']);
      await expectOk(response);
      return { ok: true };
    },
    async setLocale(id, locale) {
      // Okta's partial update (POST): only the profile's locale changes, every other property stays.
      const response = await call('POST', `/api/v1/users/${encodeURIComponent(id)}`, {
        profile: { locale: oktaLocaleOf(locale) },
      } satisfies z.input<typeof UpdateUserBody>);
      if (response.status === 404) return (await response.body?.cancel(), false);
      await expectOk(response);
      return true;
    },
    async changePassword(id, currentPassword, newPassword) {
      const response = await call(
        'POST',
        `/api/v1/users/${encodeURIComponent(id)}/credentials/change_password`,
        {
          oldPassword: { value: currentPassword },
          newPassword: { value: newPassword },
        } satisfies z.input<typeof ChangePasswordBody>,
        true,
        true,
      );
      if (response.status === 400) return refusal(response, ['password_refused']);
      if (response.status === 403) {
        const error = await errorOf(response);
        // E0000014: the old password is wrong. Any other 403 is the API token's lack of rights.
        if (error.errorCode === 'E0000014') return { ok: false, problem: 'wrong_password' };
        options.logger.error({ status: 403, errorCode: error.errorCode }, 'Okta refused the API token');
        throw new DirectoryUnavailableError('the API token was refused');
      }
      await expectOk(response);
      return { ok: true };
    },
    async endSessions(id) {
      const response = await call('DELETE', `/api/v1/users/${encodeURIComponent(id)}/sessions`);
      await response.body?.cancel();
      // A user the org no longer has has no sessions either.
      if (response.status !== 204 && response.status !== 404)
        throw new Error(`Okta answered ${response.status}`);
    },
    /** Okta deletes in two calls: the first deactivates an active user, the second deletes them. */
    async deleteUser(id) {
      for (const step of ['deactivate', 'delete']) {
        const response = await call('DELETE', `/api/v1/users/${encodeURIComponent(id)}`);
        await response.body?.cancel();
        if (response.status === 404) return;
        if (response.status !== 204) throw new Error(`Okta answered ${response.status} to ${step}`);
      }
    },
    async isLocked(id) {
      const response = await call('GET', `/api/v1/users/${encodeURIComponent(id)}`);
      if (response.status === 404) return (await response.body?.cancel(), false);
      const user = (await expectOk(response)) as { status?: unknown };
      return user.status === 'LOCKED_OUT';
    },
    async unlock(id) {
      const path = `/api/v1/users/${encodeURIComponent(id)}/lifecycle/unlock`;
      const response = await call('POST', path, undefined, true, true);
      if (response.status === 403) {
        // E0000032: Okta's answer for a user who is not locked out. Any other 403 refuses the token.
        if ((await errorOf(response)).errorCode === 'E0000032') return;
        options.logger.error({ status: 403 }, 'Okta refused the API token');
        throw new DirectoryUnavailableError('the API token was refused');
      }
      await response.body?.cancel();
      // No such user: nothing to lift.
      if (!response.ok && response.status !== 404) throw new Error(`Okta answered ${response.status}`);
    },
    async endSession(sessionId, userId) {
      // Okta's session ids are the org's own: only one of this user's is ended.
      if (!(await this.hasSession(sessionId, userId))) return;
      const response = await call('DELETE', `/api/v1/sessions/${encodeURIComponent(sessionId)}`);
      await response.body?.cancel();
      // Ended meanwhile (signed out, expired): what was asked is done.
      if (response.status !== 204 && response.status !== 404)
        throw new Error(`Okta answered ${response.status}`);
    },
    async hasSession(sessionId, userId) {
      const response = await call('GET', `/api/v1/sessions/${encodeURIComponent(sessionId)}`);
      if (response.status === 404) return (await response.body?.cancel(), false);
      const session = SessionAnswer.safeParse(await expectOk(response));
      return session.success && session.data.userId === userId && session.data.status === 'ACTIVE';
    },
    async hasSecondFactor(userId) {
      // Okta's Factors API: the user's enrolled factors; an active one is asked by the org's policy.
      const response = await call('GET', factorsPath(userId));
      if (response.status === 404) return (await response.body?.cancel(), false);
      const factors = (await expectOk(response)) as Array<{ status?: string }>;
      return Array.isArray(factors) && factors.some((factor) => factor.status === 'ACTIVE');
    },
    async verifyPassword(id, password) {
      // Okta has no "check this password" call: a primary authentication is one, counted by the org's
      // lockout (from the portal's address). Whatever it asks next (a factor) is cancelled.
      const user = await findUser(id);
      if (!user) return { ok: false, problem: 'wrong_password' };
      const response = await call('POST', '/api/v1/authn', authnBody(user.login, password), false);
      if (response.status === 401)
        return (await response.body?.cancel(), { ok: false, problem: 'wrong_password' });
      const transaction = readAuthn(await expectOk(response));
      if (transaction?.stateToken) {
        const cancelled = await call(
          'POST',
          '/api/v1/authn/cancel',
          { stateToken: transaction.stateToken } satisfies z.input<typeof StateTokenBody>,
          false,
        );
        await cancelled.body?.cancel();
      }
      return transaction?.status === 'LOCKED_OUT' ? { ok: false, problem: 'wrong_password' } : { ok: true };
    },
    listFactors,
    async enrolTotp(userId) {
      // Google Authenticator's TOTP: any authenticator app reads it.
      const response = await call('POST', factorsPath(userId), {
        factorType: TOTP_FACTOR.factorType,
        provider: TOTP_FACTOR.provider,
      } satisfies z.input<typeof EnrolFactorBody>);
      if (response.status === 400) {
        const error = await errorOf(response);
        if (error.errorCode === 'E0000001') return { ok: false, problem: 'factor_already_enrolled' };
        throw new Error(`Okta refused the enrolment: ${error.errorCode ?? 400}`);
      }
      const factor = (await expectOk(response)) as OktaFactorFields;
      const sharedSecret = factor._embedded?.activation?.sharedSecret;
      if (!sharedSecret) throw new Error('Okta enrolled a factor without a shared secret');
      return { ok: true, factorId: factor.id, sharedSecret };
    },
    async enrolEmail(userId, login) {
      // Okta's e-mail factor, to the sign-in address: the org mails the first code.
      const response = await call('POST', factorsPath(userId), {
        factorType: EMAIL_FACTOR.factorType,
        provider: EMAIL_FACTOR.provider,
        profile: { email: login },
      } satisfies z.input<typeof EnrolFactorBody>);
      if (response.status === 400) {
        // Okta answers E0000001 both for a factor set up already and for one its policy does not
        // enable: the user's factors tell them apart.
        await response.body?.cancel();
        const factors = await this.listFactors(userId);
        const active = factors.some((f) => f.factorType === EMAIL_FACTOR.factorType && f.status === 'ACTIVE');
        return { ok: false, problem: active ? 'factor_already_enrolled' : 'factor_not_offered' };
      }
      const factor = (await expectOk(response)) as OktaFactorFields;
      return { ok: true, factorId: factor.id };
    },
    async resendFactorCode(userId, factorId) {
      const response = await call(
        'POST',
        `${factorsPath(userId)}/${encodeURIComponent(factorId)}/resend`,
        {},
      );
      await response.body?.cancel();
      if (response.status === 404 || response.status === 400)
        return { ok: false, problem: 'factor_not_found' };
      if (!response.ok) throw new Error(`Okta answered ${response.status}`);
      return { ok: true };
    },
    async activateFactor(userId, factorId, passCode) {
      const response = await call(
        'POST',
        `${factorsPath(userId)}/${encodeURIComponent(factorId)}/lifecycle/activate`,
        { passCode } satisfies z.input<typeof ActivateFactorBody>,
        true,
        true,
      );
      if (response.status === 404)
        return (await response.body?.cancel(), { ok: false, problem: 'factor_not_found' });
      if (response.status === 400 || response.status === 403) {
        const error = await errorOf(response);
        // E0000068: Invalid Passcode/Answer. An active factor (E0000001) has nothing to activate.
        if (error.errorCode === 'E0000068') return { ok: false, problem: 'wrong_code' };
        // E0000069: too many wrong codes (the bundled provider's answer for a spent enrolment).
        if (error.errorCode === 'E0000069') return { ok: false, problem: 'too_many_wrong_codes' };
        if (response.status === 400) return { ok: false, problem: 'factor_not_found' };
        options.logger.error({ status: 403, errorCode: error.errorCode }, 'Okta refused the API token');
        throw new DirectoryUnavailableError('the API token was refused');
      }
      await expectOk(response);
      return { ok: true };
    },
    async removeFactor(userId, factorId) {
      const response = await call('DELETE', `${factorsPath(userId)}/${encodeURIComponent(factorId)}`);
      await response.body?.cancel();
      if (response.status === 404) return { ok: false, problem: 'factor_not_found' };
      if (response.status !== 204) throw new Error(`Okta answered ${response.status}`);
      return { ok: true };
    },
    async passwordSignIn(user, password) {
      // Okta mints a session token only from a sign-in: with the password the borrower just chose.
      const response = await call('POST', '/api/v1/authn', authnBody(user.login, password), false);
      if (!response.ok) return (await response.body?.cancel(), { kind: 'signed_in', sessionToken: null });
      const transaction = readAuthn(await response.json());
      if (transaction?.status === 'SUCCESS' && transaction.sessionToken)
        return { kind: 'signed_in', sessionToken: transaction.sessionToken };
      // The org's sign-on policy asks for a factor (or its enrolment): the portal's factor screens.
      if (transaction?.status.startsWith('MFA_') && transaction.stateToken)
        return { kind: 'factor', stateToken: transaction.stateToken };
      // Anything else (a password change, say) leaves the borrower to sign in as usual.
      return { kind: 'signed_in', sessionToken: null };
    },
    async linkSignIn(user) {
      // Okta starts no transaction without a password, so it cannot ask for a factor after a link:
      // a borrower who has one signs in with their password instead.
      const factors = await listFactors(user.id);
      return factors.some((factor) => factor.status === 'ACTIVE')
        ? { kind: 'factor_unavailable' }
        : { kind: 'signed_in', sessionToken: null };
    },
    async signInTrouble(id, since) {
      // Okta's System Log: a bounded query (until now), followed by its rel="next" links.
      const filter = `actor.id eq "${id.replace(/["\\]/g, '')}" and (eventType eq "user.session.start" or eventType eq "user.account.lock")`;
      const query = new URLSearchParams({
        filter,
        since: since.toISOString(),
        until: new Date().toISOString(),
        limit: String(LOG_PAGE_SIZE),
      });
      let path: string | null = `/api/v1/logs?${query.toString()}`;
      const found: DirectorySecurityEvent[] = [];
      for (let pages = 0; path && pages < MAX_LOG_PAGES; pages++) {
        const response = await call('GET', path);
        const events = await expectOk(response);
        if (!Array.isArray(events)) throw new Error('Okta answered logs that are not a list');
        for (const event of events) {
          // An event the portal cannot read is none of those it looks for.
          const parsed = LogEventSchema.safeParse(event);
          const read = parsed.success ? securityEventOf(parsed.data) : undefined;
          if (read) found.push(read);
        }
        path = events.length === 0 ? null : nextPath(response.headers.get('link'), org);
      }
      return found;
    },
  };

  async function expectOk(response: Response): Promise<unknown> {
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`Okta answered ${response.status}`);
    }
    return response.json();
  }
}

/** Okta's error body, field by field: a hosted org's may lack any (an unreadable one has none). */
async function errorOf(response: Response): Promise<Partial<OktaError>> {
  const read = OktaErrorSchema.partial().safeParse(await response.json().catch(() => ({})));
  return read.success ? read.data : {};
}

const authnBody = (username: string, password: string) =>
  ({ username, password }) satisfies z.input<typeof AuthnBody>;

/** An authn answer's state and tokens; undefined for an answer that is not one. */
function readAuthn(body: unknown) {
  const read = AuthnAnswer.safeParse(body);
  return read.success ? read.data : undefined;
}

const factorsPath = (userId: string) => `/api/v1/users/${encodeURIComponent(userId)}/factors`;

function toFactor(factor: OktaFactorFields): DirectoryFactor {
  return {
    id: factor.id,
    factorType: factor.factorType,
    status: factor.status,
    createdAt: new Date(factor.created),
    lastVerifiedAt: factor.lastVerified ? new Date(factor.lastVerified) : null,
    ...(typeof factor.profile?.authenticatorName === 'string'
      ? { name: factor.profile.authenticatorName.slice(0, 100) }
      : {}),
  };
}

// A borrower's 90 days of failed sign-ins fit in a few pages; past that, the newest are not worth a wait.
const LOG_PAGE_SIZE = 1000;
const MAX_LOG_PAGES = 5;

/** The path and query of a Link header's rel="next", when it points at the org itself. */
function nextPath(link: string | null, org: string): string | null {
  const next = /<([^>]+)>;\s*rel="next"/.exec(link ?? '')?.[1];
  if (!next) return null;
  const url = new URL(next, org);
  return url.origin === org ? `${url.pathname}${url.search}` : null;
}

function toUser(body: unknown): DirectoryUser {
  const user = body as OktaUserFields;
  return {
    id: user.id,
    login: user.profile.login,
    firstName: user.profile.firstName ?? '',
    lastName: user.profile.lastName ?? '',
    locale: matchLocale(user.profile.locale) ?? DEFAULT_LOCALE,
  };
}

/** Okta's "Password requirements were not met. Password requirements: at least 8 characters, …." as a sentence of ours. */
function requirementsOf(refusal: string): string {
  const listed = /Password requirements:\s*(.+)$/i.exec(refusal)?.[1];
  return listed ? `It asks for ${listed}` : refusal;
}

/** Until the org's reset time (epoch seconds) and a little; without one, backoff from one second. */
function rateLimitWait(resetHeader: string | null, attempt: number): number {
  const reset = Number(resetHeader) * 1000;
  const untilReset = Number.isFinite(reset) && reset > 0 ? reset - Date.now() + 250 : 1000 * 2 ** attempt;
  return Math.max(untilReset, 250);
}

// Paths name users by login (an e-mail address): logs keep the route, not the address.
function redactedPath(path: string): string {
  return path
    .replace(/^(\/api\/v1\/(?:users|sessions)\/)[^/?]+/, '$1:id')
    .replace(/^(\/api\/v1\/logs)\?.*$/, '$1');
}

function describe(error: unknown) {
  return error instanceof Error ? { type: error.name, message: error.message } : { message: String(error) };
}
