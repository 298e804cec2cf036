import { decodeId, encodeId } from '../../src/lib/ids.ts';
import { fetchJson, repeat, walk, type LoadRequest, type Script } from './load.ts';

/** A session token and the profile (stored uuid) it acts as. */
export interface BenchSession {
  token: string;
  profile: string;
}

/** What the requests are made from: the bench's credentials and data. */
export interface RequestParts {
  sessions: BenchSession[];
  apiKeys: string[];
  /** The stored uuid of the environment the seeded profiles belong to. */
  environmentId: string;
  /** The page filter's `date_gte`. */
  since: string;
}

/** One scenario as each server is asked it. */
export type Scenario = Partial<Record<'tributary' | 'baseline' | 'postgraphile', Script>>;

const PAGE_FIELDS = 'id date amount description account { id name kind }';
const PAGE = (remote: boolean) => `query Page($since: Date!) { transactions(first: 100, sort: DATE_DESC, filter: {date_gte: $since, entryType: DEBIT}) {
  edges { node { ${remote ? PAGE_FIELDS.replace('description', 'description remoteData') : PAGE_FIELDS} } } } }`;
const PEER_PAGE = (remote: boolean) => `query Page($profile: UUID!, $since: Date!) { benchPostgraphileProfileDebits(profile: $profile, since: $since, first: 100) {
  edges { node { rowId date amount description ${remote ? 'remoteData ' : ''}accountByAccountId { rowId name kind } } } } }`;
const WALK = `query Walk($after: String) { transactions(first: 5, after: $after) { edges { node { ${PAGE_FIELDS} } } pageInfo { hasNextPage endCursor } } }`;
/** Every seeded profile holds 100 transactions: a walk of 20 pages of 5 reads them all. */
export const WALK_PAGES = 20;

/** The parts of the GraphQL answers that the walk and the checks read (the rest is compared whole). */
interface Answer<Data> {
  data: Data;
}
interface Edges<Node> {
  edges: Array<{ node: Node }>;
}
interface PageInfo {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
type PageAnswer = Answer<{ transactions: Edges<{ id: string; remoteData?: unknown }> }>;
type WalkAnswer = Answer<{ transactions: PageInfo }>;
type PeerPageAnswer = Answer<{ benchPostgraphileProfileDebits: Edges<{ rowId: string; remoteData?: unknown }> }>;

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
/** Behind TRUST_PROXY, X-Forwarded-For spreads requests over many client addresses. */
const forwarded = () => ({ 'X-Forwarded-For': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.1` });
const json = { 'Content-Type': 'application/json' };

/** The requests of every run, per server, and the checks that their answers agree. */
export function benchRequests({ sessions, apiKeys, environmentId, since }: RequestParts) {
  const graphql = (token: string, query: string, variables: Record<string, unknown>): LoadRequest => ({
    method: 'POST',
    path: '/v1/graphql',
    headers: { Authorization: `Bearer ${token}`, ...json, ...forwarded() },
    body: JSON.stringify({ query, variables }),
  });
  const page = {
    tributary: (remote: boolean, session: BenchSession) => graphql(session.token, PAGE(remote), { since }),
    baseline: (remote: boolean, session: BenchSession): LoadRequest => ({ method: 'POST', path: '/transactions', headers: { 'X-Profile-Id': session.profile, ...json }, body: JSON.stringify({ since, remoteData: remote }) }),
    postgraphile: (remote: boolean, session: BenchSession): LoadRequest => ({ method: 'POST', path: '/graphql', headers: json, body: JSON.stringify({ query: PEER_PAGE(remote), variables: { profile: session.profile, since } }) }),
  };
  const walkStep = {
    tributary: (session: BenchSession, after: string | null) => graphql(session.token, WALK, { after }),
    baseline: (session: BenchSession, after: string | null): LoadRequest => ({ method: 'POST', path: '/walk', headers: { 'X-Profile-Id': session.profile, ...json }, body: JSON.stringify({ after }) }),
  };
  const walking = (step: (session: BenchSession, after: string | null) => LoadRequest): Script =>
    walk<{ session: BenchSession; after: string | null }>(
      WALK_PAGES,
      (context) => step((context.session ??= pick(sessions)), context.after ?? null),
      (body, context) => {
        context.after = (JSON.parse(body) as WalkAnswer).data.transactions.pageInfo.endCursor;
      },
    );
  const profileGet = {
    tributary: (profile: string): LoadRequest => ({ method: 'GET', path: `/v1/profiles/${encodeId('profile', profile)}`, headers: { Authorization: `Bearer ${pick(apiKeys)}`, ...forwarded() } }),
    baseline: (profile: string): LoadRequest => ({ method: 'GET', path: `/profiles/${profile}`, headers: { 'X-Environment-Id': environmentId } }),
  };
  const health = (authorized: boolean) => (): LoadRequest => ({
    method: 'GET',
    path: '/healthz',
    headers: { ...(authorized ? { Authorization: `Bearer ${pick(apiKeys)}` } : {}), ...forwarded() },
  });

  const scenarios = {
    page: {
      tributary: repeat(() => page.tributary(false, pick(sessions))),
      baseline: repeat(() => page.baseline(false, pick(sessions))),
      postgraphile: repeat(() => page.postgraphile(false, pick(sessions))),
    },
    remoteDataPage: {
      tributary: repeat(() => page.tributary(true, pick(sessions))),
      baseline: repeat(() => page.baseline(true, pick(sessions))),
      postgraphile: repeat(() => page.postgraphile(true, pick(sessions))),
    },
    walk: { tributary: walking(walkStep.tributary), baseline: walking(walkStep.baseline) },
    rest: { tributary: repeat(() => profileGet.tributary(pick(sessions).profile)), baseline: repeat(() => profileGet.baseline(pick(sessions).profile)) },
    healthAnonymous: repeat(health(false)),
    healthApiKey: repeat(health(true)),
  } satisfies Record<string, Scenario | Script>;

  /**
   * Before anything is timed: for one profile, Tributary and the baseline give the same answers
   * (the whole JSON) to the page, the remoteData page, every page of a walk and the REST read, and
   * PostGraphile returns the same transactions (and remote data).
   */
  async function checkAnswers(url: (server: 'tributary' | 'baseline' | 'postgraphile') => string, ca: string): Promise<void> {
    const session = sessions[0]!;
    const ask = async <Body = unknown>(server: 'tributary' | 'baseline' | 'postgraphile', request: LoadRequest) => {
      const { status, body } = await fetchJson<Body & { errors?: unknown }>(url(server), ca, request);
      if (status !== 200 || body?.errors) throw new Error(`${server} answered ${status}: ${JSON.stringify(body).slice(0, 500)}`);
      return body;
    };
    const same = (what: string, a: unknown, b: unknown) => {
      if (canonical(a) !== canonical(b)) throw new Error(`${what}: the answers differ for profile ${session.profile}:\n${canonical(a).slice(0, 400)}\n${canonical(b).slice(0, 400)}`);
    };
    for (const remote of [false, true]) {
      const ours = await ask<PageAnswer>('tributary', page.tributary(remote, session));
      if (ours.data.transactions.edges.length === 0) throw new Error(`profile ${session.profile} has no transactions to compare`);
      same(`the ${remote ? 'remoteData ' : ''}page (Tributary, baseline)`, ours, await ask('baseline', page.baseline(remote, session)));
      const peer = (await ask<PeerPageAnswer>('postgraphile', page.postgraphile(remote, session))).data.benchPostgraphileProfileDebits.edges;
      const mine = ours.data.transactions.edges;
      same(
        `the ${remote ? 'remoteData ' : ''}page (Tributary, PostGraphile)`,
        mine.map(({ node }) => [decodeId('transaction', node.id), node.remoteData]),
        peer.map(({ node }) => [node.rowId, node.remoteData]),
      );
    }
    let after: string | null = null;
    for (let step = 0; step < WALK_PAGES; step++) {
      const ours: WalkAnswer = await ask('tributary', walkStep.tributary(session, after));
      same(`page ${step + 1} of the walk`, ours, await ask('baseline', walkStep.baseline(session, after)));
      after = ours.data.transactions.pageInfo.endCursor;
      if (ours.data.transactions.pageInfo.hasNextPage !== step < WALK_PAGES - 1) throw new Error(`the walk of profile ${session.profile} does not end at page ${WALK_PAGES}`);
    }
    same('GET /v1/profiles/{id}', await ask('tributary', profileGet.tributary(session.profile)), await ask('baseline', profileGet.baseline(session.profile)));
  }

  return { scenarios, checkAnswers, page: page.tributary };
}

/** JSON with every object's keys sorted: equal values, equal text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}
