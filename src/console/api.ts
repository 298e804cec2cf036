import { QueryClient } from '@tanstack/react-query';
import createFetchClient, { type Middleware } from 'openapi-fetch';
import createQueryClient from 'openapi-react-query';
import type { components, paths } from '../../generated/rest.ts';

/** The contract's schemas (contracts/rest.yaml, through generated/rest.ts). */
export type Schemas = components['schemas'];

/**
 * What the operator's requests carry besides the session cookie: the environment they act on, and
 * on every state-changing request the session's CSRF token (both set once signed in).
 */
export const requestContext: { environmentId?: string; csrfToken?: string } = {};

const SAFE_METHODS = new Set(['GET', 'HEAD']);

const sessionHeaders: Middleware = {
  onRequest({ request }) {
    if (requestContext.environmentId) request.headers.set('Tributary-Environment', requestContext.environmentId);
    if (requestContext.csrfToken && !SAFE_METHODS.has(request.method)) request.headers.set('X-CSRF-Token', requestContext.csrfToken);
    return request;
  },
  // The contract's error body says what went wrong but not the status: the page shows both.
  async onResponse({ response }) {
    if (response.ok || !response.headers.get('content-type')?.includes('json')) return response;
    const body = (await response.clone().json()) as Record<string, unknown>;
    return new Response(JSON.stringify({ ...body, status: response.status }), { status: response.status, statusText: response.statusText, headers: response.headers });
  },
};

/** Every call the console makes goes through this client, typed from contracts/rest.yaml. */
export const fetchClient = createFetchClient<paths>({ baseUrl: globalThis.location?.origin, credentials: 'same-origin' });
fetchClient.use(sessionHeaders);

/** TanStack Query hooks over the same client: `api.useQuery('get', '/v1/…', { params })`. */
export const api = createQueryClient(fetchClient);

export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true, staleTime: 5_000 } } });

/** An error as the console shows it: the status and the contract's message (and its errorId, to find it in the logs). */
export function describeError(error: unknown): string {
  if (!error || typeof error !== 'object') return String(error);
  const { status, message, errorId } = error as { status?: number; message?: string; errorId?: string };
  return [status, message ?? 'Request failed', errorId && `(error ${errorId})`].filter(Boolean).join(' ');
}

/** Reads a paged list and its `Next-Cursor`, for the pages that walk a log with a cursor. */
export async function withCursor<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{ items: T; next: string | null }> {
  const { data, error, response } = await request;
  if (error !== undefined || data === undefined) throw Object.assign(new Error(`${response.status}`), error ?? { status: response.status });
  return { items: data, next: response.headers.get('Next-Cursor') };
}
