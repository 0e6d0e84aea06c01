import http from 'node:http';
import type { Socket } from 'node:net';
import { migrateLatest } from '../../db/migrate';
import { demoAccountLines, loadDemoAtStart } from './seeds/startup';
import { createApp } from './app';
import { checkServerConfig, loadConfig } from './config';
import { openConfiguredDatabase } from './database';
import { createLogger } from './http/logging';
import { startMetricsServer } from './http/metrics';
import { API_ROUTES } from '../contract/routes';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const started = Date.now();
  const config = loadConfig();
  checkServerConfig(config);
  const logger = createLogger(config.logLevel);
  const database = await openConfiguredDatabase(config);
  await migrateLatest(database.knex);
  const demo = await loadDemoAtStart(database.knex, config, logger);

  const { app, background, deps } = createApp({
    db: database.knex,
    dbKind: database.kind,
    config,
    logger,
    serveStatic: true,
  });

  let stopping = false;
  // When the last request other than a health check arrived: the drain lasts until the balancer stops sending.
  let lastWorkAt = 0;
  const handler = app.callback();
  const server = http.createServer((req, res) => {
    // While draining, answer what arrives but tell keep-alive clients not to send more on this connection.
    if (stopping) res.setHeader('Connection', 'close');
    if (req.url !== API_ROUTES.health.path) lastWorkAt = Date.now();
    void handler(req, res);
  });
  // Keep-alive connections stay open across a seller's 4 s poll interval and a proxy's usual 60 s idle
  // timeout. At 5 s a poll that arrived a little late met a socket the server was closing (ECONNRESET in the
  // load benchmark). Headers must be allowed longer than that, or Node can time out a connection in between.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Requests Node's parser refuses before the app runs (headers over 16 KB, malformed HTTP) still get the
  // { error, code } shape every other failure has, instead of Node's bare status line.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') return socket.destroy();
    const [status, answer] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [
            '431 Request Header Fields Too Large',
            { error: 'The request headers are too large.', code: 'headers_too_large' },
          ]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [
              '408 Request Timeout',
              { error: 'The request took too long to arrive.', code: 'request_timeout' },
            ]
          : ['400 Bad Request', { error: 'The request was malformed.', code: 'bad_request' }];
    const body = JSON.stringify(answer);
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : await startMetricsServer(config.metrics.port, config.metrics.host);
  background.start();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
  // The Razorpay test double (development without keys) sends its signed webhooks here.
  const double = await deps.payments?.double();
  double?.setWebhookUrl(`${url}/webhooks/razorpay`);
  // The Twilio test double (development without TWILIO_* settings) sends replies ("STOP") here.
  const smsDouble = await deps.sms?.double();
  smsDouble?.setInboundUrl(`${url}/webhooks/twilio/sms`);
  const dbLabel =
    database.kind === 'pg' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  // Plain console output: this is what a developer reads after `npm start`.
  console.log(`\nNagai is running at ${url}  (database: ${dbLabel}, ready in ${Date.now() - started} ms)`);
  if (double) console.log(`Test payments: the Razorpay test double is serving at ${double.url}`);
  else if (!deps.payments) console.log('No RAZORPAY_* keys: online payment is off (cash on delivery only).');
  if (smsDouble)
    console.log(`Test SMS: the Twilio test double is serving; sign-in codes are listed at ${smsDouble.url}/`);
  else if (!deps.sms) console.log('No TWILIO_* settings: sign-in is by e-mail only, no SMS notices.');
  for (const line of demoAccountLines(demo, config, url)) console.log(line);
  console.log('');

  /**
   * Graceful drain, in this order: readiness fails at once (the balancer's health check takes the process out
   * of its pool) while everything that arrives is still answered; after SHUTDOWN_DRAIN_MS the event streams are
   * told to reconnect (through the balancer, so elsewhere) and end, the listener closes, in-flight requests
   * finish and keep-alive connections close as they go idle; then the background work, the pool, exit.
   */
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.lifecycle.draining = true;
    logger.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: leaving the balancer first');
    const hardStop = setTimeout(
      () => {
        logger.error('shutdown took too long; exiting');
        process.exit(1);
      },
      2 * config.shutdownDrainMs + 10_000,
    );
    hardStop.unref();
    // The balancer notices the failing check within its interval × fall count; until then it still sends
    // work, answered as usual. After SHUTDOWN_DRAIN_MS, wait on while requests still arrive (up to as long
    // again): the listener must not close, nor idle connections be cut, under a balancer still using them.
    if (config.shutdownDrainMs > 0) {
      const drainStart = Date.now();
      await sleep(config.shutdownDrainMs);
      const quietMs = Math.min(1000, config.shutdownDrainMs / 2);
      while (Date.now() - lastWorkAt < quietMs && Date.now() - drainStart < 2 * config.shutdownDrainMs)
        await sleep(100);
    }
    logger.info('draining in-flight requests');
    // Refuse new connections; finish what is in flight; close keep-alive connections as they go idle.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Open event streams end now: each is told to reconnect soon (spread over a second, so they do not all
    // arrive at once) and resumes on another process from its last event id.
    await deps.events.stop();
    server.closeIdleConnections();
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
    await closed;
    clearInterval(idleSweep);
    for (const s of sockets) s.destroy();
    metricsServer?.close();
    await background.stop();
    await deps.payments?.close();
    await deps.sms?.close();
    await database.close();
    clearTimeout(hardStop);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
