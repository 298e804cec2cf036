import { useEffect, useState, type ReactNode } from 'react';

/** Where the console is: the path and query after `#` (`#/profiles/p_…?tab=x`). Hash routes need no server fallback. */
export interface Route {
  path: string[];
  query: URLSearchParams;
}

function currentRoute(): Route {
  const [path = '', query = ''] = location.hash.replace(/^#/, '').split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

/** The hash of a route: `href('profiles', id)`, with an optional query. */
export function href(...parts: Array<string | Record<string, string>>): string {
  const query = parts.find((part) => typeof part === 'object');
  const path = parts.filter((part): part is string => typeof part === 'string').map(encodeURIComponent).join('/');
  const search = query ? new URLSearchParams(Object.entries(query).filter(([, value]) => value !== '')).toString() : '';
  return `#/${path}${search ? `?${search}` : ''}`;
}

export function navigate(to: string): void {
  location.hash = to;
}

export function Link({ to, children, current }: { to: string; children: ReactNode; current?: boolean }) {
  return (
    <a href={to} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
