/** What mail delivery logs through; a Fastify/pino logger fits. */
export interface MailLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
