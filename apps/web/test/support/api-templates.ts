/**
 * The catalogue id of a template literal the API writes a message with: its varying parts named as
 * the portal fills them in (src/i18n/in-portal-language.ts). Parts it cannot name are left as written.
 */
export function catalogueIdOfTemplate(template: string): string {
  return template
    .replace(/\$\{lender\.name\}/g, '{lenderName}')
    .replace(/\$\{lender\.supportPhone\}/g, '{supportPhone}')
    .replace(/\$\{[^}]*\} minutes/g, '{minutes} minutes');
}
