import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

// What the factor steps of /api/v1/authn read, shared by their route files.

/** Factor ids are letters and digits; anything else is no factor's. */
export const FactorIdSchema = z.object({ factorId: z.string().regex(/^[A-Za-z0-9]{1,64}$/) });

export type Parsed<T> = { ok: true; value: T } | { ok: false };

/** CORS, the origin check and the body: the answer sent, or the parsed body. */
export type AcceptBody = <T>(
  request: FastifyRequest,
  reply: FastifyReply,
  schema: z.ZodType<T>,
) => Parsed<T> & { sent?: FastifyReply };
