const TEXT_LINK = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

/** The absolute http(s) URLs a message carries, in order of appearance, each once. */
export function extractLinks(text: string, html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(HREF)) found.push(decodeEntities(match[1] ?? match[2] ?? ''));
  for (const match of text.matchAll(TEXT_LINK)) found.push(match[0].replace(/[.,;:!?)\]]+$/, ''));
  const links: string[] = [];
  for (const candidate of found) {
    let url: URL;
    try {
      url = new URL(candidate.trim());
    } catch {
      continue;
    }
    if ((url.protocol === 'https:' || url.protocol === 'http:') && !links.includes(url.href)) {
      links.push(url.href);
    }
  }
  return links;
}

function decodeEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, name: string) => {
    switch (name) {
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'quot':
        return '"';
      default:
        return "'";
    }
  });
}
