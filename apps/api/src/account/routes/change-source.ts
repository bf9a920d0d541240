import type { FastifyRequest } from 'fastify';
import { clientAddress } from '@customer-core/contracts/server';
import type { ChangeSource } from '../../activity/security-activity.js';

/** The device and address a borrower made a change from, for their security activity. */
export const changeSourceOf = (request: FastifyRequest, trustProxy: boolean): ChangeSource => ({
  clientAddress: clientAddress(request, trustProxy),
  userAgent: request.headers['user-agent'],
});
