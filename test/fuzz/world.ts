import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { decodeId, encodeId, type Resource } from '../../src/lib/ids.ts';
import { asOperator, createEnvironmentWithKey } from '../support/environments.ts';
import { basicAuth, createProfile } from '../support/factories.ts';
import { Connection, type ConnectionEntity } from '../../src/modules/connection/connection.entity.ts';
import { applyOwners } from '../../src/modules/sync/owner-step.ts';
import { applyInvestments, applyLiabilities } from '../../src/modules/sync/product-steps.ts';
import { applyListedStatements, statementBlobKey } from '../../src/modules/statement/statement.service.ts';
import { markReady } from '../../src/modules/statement/statement.store.ts';
import { sandboxOwnersOf } from '../../src/providers/sandbox/owners.ts';
import { ModelBrokerage } from '../support/model-brokerage.ts';
import { connectionWithData } from '../support/profile-with-data.ts';
import type { TestApp } from '../support/test-app.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { ID_TOKEN } from './id-values.ts';
import type { AuthChoice, FuzzRequest } from './requests.ts';
import { bodyText } from './requests.ts';
import { rawSender, type RawSender, type SentRequest, type Timed } from './sender.ts';

/** API keys of the environment: requests rotate across them, each with its own rate-limit window. */
const EXTRA_KEYS = 3;
/** Loopback source addresses rotated across, so anonymous requests are not all in one window. */
const SOURCE_ADDRESSES = Array.from({ length: 40 }, (_, index) => `127.0.0.${index + 2}`);
/** The address `/healthz` is asked from, which no fuzz request uses. */
const PROBE_ADDRESS = '127.0.0.1';
/** A request unanswered this long is given up (and fails the run): the service hangs. */
const NO_ANSWER_MS = 60_000;

interface Foreign {
  apiKey: string;
  environmentId: string;
  profileId: string;
}

interface Session {
  profileId: string;
  token: string;
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * The records a fuzz run aims at, made through the API before it starts: a profile with a synced
 * sandbox connection (accounts, balances, transactions, holdings, investment transactions,
 * liabilities, account owners, statements (one READY with its document), events), a second profile, sessions for both, a webhook subscription to a real
 * receiver, and an environment of someone else with its own key and profile. Fuzzed requests name
 * them by placeholder; `repair` remakes what a request destroyed.
 */
export class World {
  #app: TestApp;
  #sender: RawSender;
  #receiver: Receiver;
  #apiKeys: string[];
  #foreign: Foreign;
  #ids = new Map<string, string[]>();
  #profiles: string[] = [];
  #sessions: Session[] = [];
  #connectionId = '';
  #subscriptionId = '';
  #turn = 0;

  private constructor(app: TestApp, apiKeys: string[], foreign: Foreign, receiver: Receiver) {
    this.#app = app;
    this.#apiKeys = apiKeys;
    this.#foreign = foreign;
    this.#receiver = receiver;
    this.#sender = rawSender(app.service.port, readFileSync(inject('tls').certFile, 'utf8'), NO_ANSWER_MS);
  }

  static async create(app: TestApp): Promise<World> {
    const environmentId = app.service.bootstrap.created!.environmentId;
    const extra = await asOperator(app, async (admin) => {
      const secrets: string[] = [];
      for (let index = 0; index < EXTRA_KEYS; index++) secrets.push((await admin.createKey(environmentId, `fuzz ${index}`)).secret);
      return secrets;
    });
    const foreignEnvironment = await createEnvironmentWithKey(app);
    const foreignProfile = await createProfile(app, {}, foreignEnvironment.apiKey);
    const foreign = { apiKey: foreignEnvironment.apiKey, environmentId: foreignEnvironment.environmentId, profileId: foreignProfile.id };
    const world = new World(app, [app.apiKey, ...extra], foreign, await startReceiver());
    await world.repair();
    return world;
  }

  /** Sends a generated request with its placeholders and credential filled in, from the next source address. */
  send(request: FuzzRequest): Promise<Timed> {
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, this.resolve(value)]));
    const authorization = this.#authorization(request.auth);
    if (authorization !== undefined) headers.Authorization = authorization;
    const sent: SentRequest = {
      method: request.method,
      path: this.resolve(request.path),
      headers,
      localAddress: SOURCE_ADDRESSES[this.#turn++ % SOURCE_ADDRESSES.length],
    };
    if (request.body) {
      const body = bodyText(request.body);
      sent.body = typeof body === 'string' ? this.resolve(body) : body;
    }
    return this.#sender.send(sent);
  }

  /** GET /healthz from an address no fuzz request uses. */
  health(): Promise<Timed> {
    return this.#sender.send({ method: 'GET', path: '/healthz', headers: {}, localAddress: PROBE_ADDRESS });
  }

  /** Replaces `⟪prefix:n⟫` with the n-th real id of that kind (an unknown well-formed one when there is none) and `⟪receiver⟫` with the receiver's URL. */
  resolve(text: string): string {
    return text
      .replaceAll('⟪receiver⟫', this.#receiver.url)
      .replace(ID_TOKEN, (_, prefix: string, index: string) => {
        const ids = this.#ids.get(prefix) ?? [];
        return ids.length > 0 ? ids[Number(index) % ids.length] : `${prefix}_${'0'.repeat(26)}`;
      });
  }

  /** The ids of this environment's records that appear in `text` (the other environment's are left out). */
  recordsIn(text: string): string[] {
    const foreign = new Set([this.#foreign.profileId, this.#foreign.environmentId]);
    return [...this.#ids].filter(([prefix]) => prefix !== 'cursor').flatMap(([, ids]) => ids).filter((id) => !foreign.has(id) && text.includes(id));
  }

  #authorization(auth: AuthChoice): string | undefined {
    if (typeof auth === 'object') return auth.header;
    const turn = this.#turn;
    const apiKey = this.#apiKeys[turn % this.#apiKeys.length];
    const profileId = this.#profiles[turn % this.#profiles.length];
    switch (auth) {
      case 'none':
        return undefined;
      case 'apiKey':
        return `Bearer ${apiKey}`;
      case 'foreignApiKey':
        return `Bearer ${this.#foreign.apiKey}`;
      case 'basic':
        return basicAuth(profileId, apiKey);
      case 'basicWrongKey':
        return basicAuth(profileId, this.#foreign.apiKey);
      case 'basicForeignProfile':
        return basicAuth(this.#foreign.profileId, apiKey);
      case 'session':
        return `Bearer ${this.#sessions[turn % this.#sessions.length].token}`;
    }
  }

  /**
   * Remakes what fuzzed requests destroyed (a deleted profile, a disconnected connection, a deleted
   * subscription, a revoked session) and refreshes the ids requests aim at.
   */
  async repair(): Promise<void> {
    const alive = await this.#app.sql<{ id: string }>('select id from profile where id = any($1) and deleting_at is null', [this.#profiles.map((id) => decodeId('profile', id))]);
    const living = this.#profiles.filter((id) => alive.some((row) => row.id === decodeId('profile', id)));
    while (living.length < 2) living.push((await createProfile(this.#app)).id);
    this.#profiles = living;

    const [connection] = await this.#app.sql('select status from connection where id = $1', [this.#connectionId ? decodeId('connection', this.#connectionId) : null]);
    if (!connection || ['DISCONNECTING', 'DISCONNECTED'].includes(connection.status) || !this.#profiles.includes(await this.#ownerOf(this.#connectionId))) {
      this.#connectionId = await this.#connect(this.#profiles[0]);
    }

    const [subscription] = await this.#app.sql('select 1 from webhook_subscription where id = $1', [this.#subscriptionId ? decodeId('webhookSubscription', this.#subscriptionId) : null]);
    if (!subscription) this.#subscriptionId = (await this.#post('/v1/webhooks/subscriptions', { name: 'Fuzz', targetUrl: this.#receiver.url }, 201)).id;

    this.#sessions = await this.#liveSessions();
    await this.#collectIds();
  }

  async #ownerOf(connectionId: string): Promise<string> {
    const [row] = await this.#app.sql('select profile_id from connection where id = $1', [decodeId('connection', connectionId)]);
    return row ? encodeId('profile', row.profile_id) : '';
  }

  /**
   * A sandbox connection of the profile with accounts, balances and transactions (built, not synced),
   * and holdings, investment transactions, liabilities and account owners (a joint account's two)
   * stored by the sync's own steps.
   */
  async #connect(profileId: string): Promise<string> {
    const connectionId = await connectionWithData(this.#app, decodeId('profile', profileId)!);
    const connection = await this.#app.orm.em.fork().findOneOrFail(Connection, { id: decodeId('connection', connectionId)! }, { populate: ['profile'] });
    const accounts = await this.#app.sql<{ remote_id: string }>('select remote_id from account where connection_id = $1 order by id', [connection.id]);
    const brokerage = new ModelBrokerage(accounts.map((account) => account.remote_id), new Date().toISOString().slice(0, 10));
    for (const [index, security] of [0, 1, 2, 3, 4].entries()) brokerage.apply({ kind: 'buy', account: index, security, units: 100 + index, daysAgo: index });
    brokerage.apply({ kind: 'sell', pick: 0, units: 50 });
    await applyInvestments(this.#app.orm.em.fork(), connection, 'sandbox', brokerage.snapshot('2000-01-01'));
    await applyLiabilities(this.#app.orm.em.fork(), connection, 'sandbox', brokerage.liabilities());
    await applyOwners(this.#app.orm.em.fork(), connection, accounts.map((account) => ({ accountRemoteId: account.remote_id, owners: sandboxOwnersOf('checking', 'US') })), this.#app.cipher);
    await this.#statements(connection, accounts[0]!.remote_id);
    return connectionId;
  }

  /** Two statements of the account, as a listing records them (their fetch not queued), one of them READY with a document in the blob store. */
  async #statements(connection: ConnectionEntity, accountRemoteId: string): Promise<void> {
    const months = ['2026-01', '2026-02'].map((month) => ({ remoteId: `fuzz-${month}`, accountRemoteId, startOn: `${month}-01`, endOn: `${month}-28`, issuedOn: null }));
    await applyListedStatements(this.#app.orm.em.fork(), connection, months, async () => {});
    const [statement] = await this.#app.sql<{ id: string }>('select id from statement where connection_id = $1 order by id limit 1', [connection.id]);
    const pdf = Buffer.from('%PDF-1.3\n%fuzz\n');
    await this.#app.service.blobs.put(statementBlobKey(connection.profile.id, statement!.id), pdf);
    await this.#app.orm.em.fork().transactional((tx) => markReady(tx, connection.profile.id, statement!.id, { size: pdf.length, sha256: createHash('sha256').update(pdf).digest('hex') }));
  }

  /** One valid session per living profile; a profile past its issuing limit gets a session on a new profile instead. */
  async #liveSessions(): Promise<Session[]> {
    const sessions: Session[] = [];
    for (const profileId of this.#profiles) {
      const kept = this.#sessions.find((session) => session.profileId === profileId);
      if (kept && (await this.#app.http.get('/v1/users/session', { auth: kept.token })).status === 200) {
        sessions.push(kept);
        continue;
      }
      const issued = await this.#app.http.post('/v1/users/sessions', { auth: this.#apiKeys[0], json: { userId: profileId } });
      const fresh = issued.status === 201 ? issued : await this.#app.http.post('/v1/users/sessions', { auth: this.#apiKeys[0], json: {} });
      if (fresh.status !== 201) throw new Error(`issuing a fuzz session: ${fresh.status} ${fresh.text}`);
      sessions.push({ profileId, token: fresh.body.token });
    }
    return sessions;
  }

  async #collectIds(): Promise<void> {
    const connection = decodeId('connection', this.#connectionId);
    const rows = async (resource: Resource, query: string, values: unknown[] = []) => (await this.#app.sql<{ id: string }>(query, values)).map((row) => encodeId(resource, row.id));
    const environmentId = this.#app.service.bootstrap.created!.environmentId;
    const environment = decodeId('environment', environmentId);
    this.#ids = new Map<string, string[]>([
      ['p', [...this.#profiles, this.#foreign.profileId]],
      ['conn', [this.#connectionId]],
      ['acct', await rows('account', 'select id from account where connection_id = $1 order by id limit 4', [connection])],
      ['bal', await rows('balance', 'select b.id from balance b join account a on a.id = b.account_id where a.connection_id = $1 order by b.id limit 4', [connection])],
      ['txn', await rows('transaction', 'select id from transaction where connection_id = $1 order by id limit 4', [connection])],
      ['hld', await rows('holding', 'select id from holding where connection_id = $1 order by id limit 4', [connection])],
      ['itx', await rows('investmentTransaction', 'select id from investment_transaction where connection_id = $1 order by id limit 4', [connection])],
      ['stmt', await rows('statement', 'select id from statement where connection_id = $1 order by id limit 4', [connection])],
      ['sec', await rows('security', 'select security_id as id from holding where connection_id = $1 order by id limit 4', [connection])],
      ['evt', await rows('event', 'select id from event where environment_id = $1 order by id desc limit 4', [environment])],
      ['wh', [this.#subscriptionId]],
      ['whd', await rows('webhookDelivery', 'select id from webhook_delivery where subscription_id = $1 order by id limit 4', [decodeId('webhookSubscription', this.#subscriptionId)])],
      ['catr', await rows('categorizationRule', 'select id from categorization_rule where environment_id = $1 order by id limit 4', [environment])],
      ['ses', await rows('session', 'select id from session where environment_id = $1 order by id desc limit 4', [environment])],
      ['env', [environmentId, this.#foreign.environmentId]],
      ['key', await rows('apiKey', 'select id from api_key where environment_id = $1 order by id limit 4', [environment])],
      ['cursor', await this.#cursors()],
    ]);
  }

  /** Real transaction cursors of the connected profile, in both sort orders (the placeholder `⟪cursor:n⟫`). */
  async #cursors(): Promise<string[]> {
    const query = '{ desc: transactions(first: 2) { edges { cursor } } asc: transactions(first: 2, sort: DATE_ASC) { edges { cursor } } }';
    const response = await this.#app.http.post('/v1/graphql', { auth: basicAuth(this.#profiles[0], this.#apiKeys[0]), json: { query } });
    if (response.status !== 200 || !response.body.data) throw new Error(`reading cursors: ${response.status} ${response.text}`);
    return [...response.body.data.desc.edges, ...response.body.data.asc.edges].map((edge: { cursor: string }) => edge.cursor);
  }

  async #post(path: string, json: unknown, status: number) {
    const response = await this.#app.http.post(path, { auth: this.#apiKeys[0], json });
    if (response.status !== status) throw new Error(`POST ${path}: ${response.status} ${response.text}`);
    return response.body;
  }

  async close(): Promise<void> {
    this.#sender.close();
    await this.#receiver.close();
  }
}
