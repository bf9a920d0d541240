import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  ActivateFactorBody,
  EMAIL_FACTOR,
  EnrolFactorBody,
  FACTORS_OFFERED,
  TOTP_FACTOR,
  type OktaFactorFields,
} from '@customer-core/contracts/server';
import { sendOktaError } from '../okta-error-handler.js';
import {
  apiValidationFailed,
  enrolmentLocked,
  invalidPasscode,
  rateLimited,
  resourceNotFound,
} from '../okta-errors.js';
import type { IdpUser } from '../user-repository.js';
import { parseOktaBody } from '../okta-bodies.js';
import type { Factor } from './factor-repository.js';
import { totpActivation } from './totp.js';
import type { UserFactors } from './user-factors.js';

/** Okta's Factors API under /api/v1/users/{id}/factors, registered inside the Users API's guard. */
export interface FactorsApiDependencies {
  factors: UserFactors;
  findUser(idOrLogin: string): Promise<IdpUser | undefined>;
  orgUrl: string;
  usersPath: string;
}

/** Factor ids are letters and digits; anything else is no factor's. */
const FACTOR_ID = /^[A-Za-z0-9]{1,64}$/;

const link = (href: string, ...allow: string[]) => ({ href, hints: { allow } });

/** A factor as Okta's Factors API shows it; the shared secret only in the answer that enrols it. */
export function oktaFactor(factor: Factor, user: IdpUser, userUrl: string, withActivation = false) {
  const self = `${userUrl}/factors/${factor.id}`;
  const answer = {
    id: factor.id,
    factorType: factor.factorType,
    provider: factor.provider,
    vendorName: factor.provider,
    status: factor.status,
    created: factor.createdAt.toISOString(),
    lastUpdated: factor.createdAt.toISOString(),
    ...(factor.lastUsedAt ? { lastVerified: factor.lastUsedAt.toISOString() } : {}),
    profile:
      factor.factorType === EMAIL_FACTOR.factorType ? { email: user.login } : { credentialId: user.login },
    _links: {
      ...(factor.status === 'PENDING_ACTIVATION'
        ? { activate: link(`${self}/lifecycle/activate`, 'POST') }
        : {}),
      ...(factor.status === 'PENDING_ACTIVATION' && factor.factorType === EMAIL_FACTOR.factorType
        ? { resend: [{ name: 'email', ...link(`${self}/resend`, 'POST') }] }
        : {}),
      self: link(self, 'GET', 'DELETE'),
      user: link(userUrl, 'GET'),
    },
    ...(withActivation && factor.factorType === TOTP_FACTOR.factorType
      ? {
          _embedded: {
            activation: totpActivation(factor.secret),
          },
        }
      : {}),
  };
  // Every field the API reads of a factor is in it.
  return answer satisfies OktaFactorFields;
}

export function registerFactorsApi(app: FastifyInstance, deps: FactorsApiDependencies, routeOptions: object) {
  const { factors, findUser, orgUrl, usersPath } = deps;
  const userUrl = (user: IdpUser) => `${orgUrl}${usersPath}/${user.id}`;
  const userNotFound = (reply: FastifyReply, idOrLogin: string) =>
    sendOktaError(reply, 404, resourceNotFound(idOrLogin, 'User'));
  // Another user's factor id, like an unknown one, is not found: it says nothing of whose it is.
  const factorNotFound = (reply: FastifyReply, factorId: string) =>
    sendOktaError(reply, 404, resourceNotFound(factorId, 'UserFactor'));
  type Params = { idOrLogin: string; factorId?: string };

  app.get(`${usersPath}/:idOrLogin/factors`, routeOptions, async (request, reply) => {
    const { idOrLogin } = request.params as Params;
    const user = await findUser(idOrLogin);
    if (!user) return userNotFound(reply, idOrLogin);
    const list = await factors.list(user.id);
    return reply.send(list.map((factor) => oktaFactor(factor, user, userUrl(user))));
  });

  app.post(`${usersPath}/:idOrLogin/factors`, routeOptions, async (request, reply) => {
    const { idOrLogin } = request.params as Params;
    const parsed = parseOktaBody(EnrolFactorBody, request.body);
    if (!parsed.success) return sendOktaError(reply, 400, parsed.error);
    const user = await findUser(idOrLogin);
    if (!user) return userNotFound(reply, idOrLogin);
    const wanted = parsed.data;
    if ('profile' in wanted && wanted.profile.email.toLowerCase() !== user.login.toLowerCase())
      return sendOktaError(
        reply,
        400,
        apiValidationFailed('profile', ['profile.email: must be the user’s login in this organization']),
      );
    const outcome =
      wanted.factorType === EMAIL_FACTOR.factorType
        ? await factors.enrolEmail(user)
        : await factors.enrolTotp(user.id);
    if (outcome.kind === 'not_offered')
      return sendOktaError(
        reply,
        400,
        apiValidationFailed('factorType', [
          `factorType: ${FACTORS_OFFERED.replace(/ and .*/, ' is offered')}`,
        ]),
      );
    if (outcome.kind === 'too_many_codes') return sendOktaError(reply, 429, rateLimited());
    if (outcome.kind === 'already_enrolled')
      return sendOktaError(
        reply,
        400,
        apiValidationFailed('factorEnrollRequest', [
          'factorEnrollRequest: A factor of this type is already set up.',
        ]),
      );
    return reply.send(oktaFactor(outcome.factor, user, userUrl(user), true));
  });

  app.post(
    `${usersPath}/:idOrLogin/factors/:factorId/lifecycle/activate`,
    routeOptions,
    async (request, reply) => {
      const { idOrLogin, factorId = '' } = request.params as Params;
      const parsed = parseOktaBody(ActivateFactorBody, request.body);
      if (!parsed.success) return sendOktaError(reply, 400, parsed.error);
      const user = await findUser(idOrLogin);
      if (!user) return userNotFound(reply, idOrLogin);
      if (!FACTOR_ID.test(factorId)) return factorNotFound(reply, factorId);
      const outcome = await factors.activate(user.id, factorId, parsed.data.passCode);
      switch (outcome.kind) {
        case 'not_found':
          return factorNotFound(reply, factorId);
        case 'already_active':
          return sendOktaError(
            reply,
            400,
            apiValidationFailed('factor', ['factor: The factor is already active.']),
          );
        case 'wrong_code':
          return sendOktaError(reply, 403, invalidPasscode());
        case 'too_many_wrong_codes':
          return sendOktaError(reply, 403, enrolmentLocked());
        case 'activated':
          return reply.send(oktaFactor(outcome.factor, user, userUrl(user)));
      }
    },
  );

  // Okta's resend of an e-mail factor's code while it waits for activation.
  app.post(`${usersPath}/:idOrLogin/factors/:factorId/resend`, routeOptions, async (request, reply) => {
    const { idOrLogin, factorId = '' } = request.params as Params;
    const user = await findUser(idOrLogin);
    if (!user) return userNotFound(reply, idOrLogin);
    if (!FACTOR_ID.test(factorId)) return factorNotFound(reply, factorId);
    const outcome = await factors.resendEmailCode(user, factorId);
    if (outcome.kind === 'not_found') return factorNotFound(reply, factorId);
    if (outcome.kind === 'too_many_codes') return sendOktaError(reply, 429, rateLimited());
    const factor = await factors.list(user.id).then((all) => all.find((f) => f.id === factorId));
    return factor ? reply.send(oktaFactor(factor, user, userUrl(user))) : factorNotFound(reply, factorId);
  });

  app.delete(`${usersPath}/:idOrLogin/factors/:factorId`, routeOptions, async (request, reply) => {
    const { idOrLogin, factorId = '' } = request.params as Params;
    const user = await findUser(idOrLogin);
    if (!user) return userNotFound(reply, idOrLogin);
    if (!FACTOR_ID.test(factorId) || !(await factors.remove(user.id, factorId)))
      return factorNotFound(reply, factorId);
    return reply.code(204).send();
  });
}
