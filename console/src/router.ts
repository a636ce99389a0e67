import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** What a page is given: the parameters of its address (`sends/:sendId` → `{sendId}`). */
export interface PageProps {
  params: Record<string, string>;
}

/** A page of the console, listed in pages.ts. */
export interface Page {
  /** Its address after `#/`, with `:name` for a parameter: `sends`, `sends/:sendId`. */
  path: string;
  /** Its label in the navigation; a page without one is reached from another (a send's details). */
  nav?: string;
  /** Its heading and the document's title. */
  title: string;
  view: ComponentType<PageProps>;
}

/** The address of a page, for a link: `href('sends', id)` → `#/sends/<id>`. */
export const href = (...segments: (string | number)[]) => `#/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`;

/** The page an address shows and its parameters; the first page when none matches. */
export function pageAt(pages: readonly Page[], hash: string): { page: Page; params: Record<string, string> } {
  const segments = hash.replace(/^#\/?/, '').split('?')[0].split('/').filter(Boolean);
  for (const page of pages) {
    const parts = page.path.split('/');
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, i) => {
      if (part.startsWith(':')) {
        params[part.slice(1)] = decodeURIComponent(segments[i]);
        return true;
      }
      return part === segments[i];
    });
    if (matches) return { page, params };
  }
  return { page: pages[0], params: {} };
}

/** The location's hash, kept current. */
export function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash;
}
