import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthServices } from '../../services.js';

// PLACEHOLDER: to be written (issue 4).
export const registrationRoutes =
  (_services: AuthServices): FastifyPluginAsyncZod =>
  async () => {};
