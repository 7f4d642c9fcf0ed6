import { createContext, use, type ComponentPropsWithRef, type ElementType } from 'react';

export type InternalLinkProps = Omit<ComponentPropsWithRef<'a'>, 'href'> & { to: string };

/**
 * What draws a link to another page of Alertdesk. The app (main.tsx) gives React Router's Link, so its pages change
 * without a reload; without one (the marketing home page, an entry of its own without the router: home-main.tsx) it
 * is a plain `<a href>`. Shared pieces (logo, footer links, the home page) use InternalLink and work in both.
 */
export const LinkComponent = createContext<ElementType<InternalLinkProps> | null>(null);

export function InternalLink({ to, ...props }: InternalLinkProps) {
  const RouterLink = use(LinkComponent);
  return RouterLink ? <RouterLink to={to} {...props} /> : <a href={to} {...props} />;
}
