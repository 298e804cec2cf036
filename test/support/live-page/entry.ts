/**
 * Browser code (bundled at test time by test/support/live-page/bundle.ts, never committed): an
 * unmodified Apollo Client with its GraphQLWsLink over graphql-ws, as a front end would use them.
 * `subscribeLive` on the global object subscribes and records what arrives in `live`.
 */
import { ApolloClient, InMemoryCache, gql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { createClient } from 'graphql-ws';

export interface Live {
  /** Set once a round trip after the subscription has come back: the service holds the subscription. */
  ready: boolean;
  results: unknown[];
  errors: string[];
  closes: number[];
}

/** What the page exposes on its global object (the tests read it with `page.evaluate`). */
export interface LivePage {
  live: Live;
  subscribeLive(url: string, authorization: string, query: string): void;
}

const page = globalThis as unknown as LivePage;

page.live = { ready: false, results: [], errors: [], closes: [] };
page.subscribeLive = (url, authorization, query) => {
  const wsClient = createClient({
    url,
    connectionParams: { authorization },
    retryAttempts: 0,
    on: { closed: (event) => void page.live.closes.push((event as { code: number }).code) },
  });
  const client = new ApolloClient({ link: new GraphQLWsLink(wsClient), cache: new InMemoryCache() });
  client.subscribe({ query: gql(query) }).subscribe({
    next: (result) => void page.live.results.push(result.data),
    error: (error: Error) => void page.live.errors.push(error.message),
  });
  // Only subscriptions run over the socket: this query is refused, after the subscription was taken.
  const ready = () => void (page.live.ready = true);
  wsClient.subscribe({ query: '{ __typename }' }, { next: ready, error: ready, complete: ready });
};
