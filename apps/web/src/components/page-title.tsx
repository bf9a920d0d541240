import { getLenderBranding } from '../config/portal-config-meta';

/** The document title of a screen; React hoists <title> into the head. */
export function PageTitle({ title }: { title: string }) {
  return <title>{`${title} | ${getLenderBranding().name}`}</title>;
}
