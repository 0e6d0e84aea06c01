/**
 * Appointment reminders at scale (issue #22): 5,000 booked appointments whose 15-minute reminders fall due at
 * the same instant; two production server processes poll one PostgreSQL database's job table; every reminder is
 * pushed to the customer and to the jeweller (10,000 pushes). Proves that all go out within 60 s of falling due
 * and each exactly once. Run: npm run bench:reminders (writes the 'appointment-reminders' section of
 * docs/benchmarks.md; BENCH_REMINDER_RUNS=3 runs by default, BENCH_REMINDER_COUNT=5000 appointments).
 *
 * Each run starts from an empty database (dropped and migrated). Setup writes the users, their live sessions,
 * their push subscriptions and the appointments directly, and the jobs through the server's own
 * scheduleJobs(), so each reminder's run_at is the server's (starts_at − 15 min), all due ~30 s after setup.
 * LocalPushService (tests/support, the push-service test double, trusted through NODE_EXTRA_CA_CERTS) verifies
 * each push's VAPID signature and decrypts it as a browser's push service would, and counts deliveries.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import type { AppointmentPush } from '../../api/contract/push';
import { scheduleJobs } from '../../api/src/features/schedule/jobs';
import { migrateLatest } from '../../db/migrate';
import { LocalPushService, type FakeSubscriber } from '../support/push-receiver';
import { fmt, openKnex, startServer, writeSection, type ServerProcess } from './lib/harness';

const RUNS = Math.max(1, Math.min(10, Number(process.env.BENCH_REMINDER_RUNS ?? 3)));
const COUNT = Math.max(10, Math.min(50_000, Number(process.env.BENCH_REMINDER_COUNT ?? 5000)));
const PROCESSES = 2;
const LIMIT_MS = 60_000;
const MINUTE = 60_000;
/** How long after setup the reminders fall due (the servers start in between). */
const DUE_IN_MS = 30_000;
const DATABASE_URL =
  process.env.BENCH_REMINDERS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/nagai_bench_reminders';

interface RunResult {
  setupMs: number;
  firstMs: number;
  /** Due → the last push received by the double. */
  lastMs: number;
  /** Due → every reminder job marked done. */
  jobsDoneMs: number;
  pushes: number;
  duplicates: number;
  missing: number;
  inApp: number;
  failedPushes: number;
  serverCpuSeconds: number[];
  /** CPU of this process, which runs the push double (TLS, VAPID check, decryption of every push). */
  doubleCpuSeconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function recreateDatabase(): Promise<void> {
  const u = new URL(DATABASE_URL);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const admin = openKnex(u.toString());
  try {
    await admin.raw(`drop database if exists "${name}" with (force)`);
    await admin.raw(`create database "${name}"`);
  } finally {
    await admin.destroy();
  }
}

/** Users, sessions, subscriptions, appointments and their jobs; returns the due instant. */
async function setup(push: LocalPushService): Promise<{
  dueAt: number;
  subs: Map<string, { userId: number }>;
  appointmentIds: number[];
}> {
  await recreateDatabase();
  const knex = openKnex(DATABASE_URL);
  try {
    await migrateLatest(knex);
    const users = (await knex.raw(
      `insert into users (email, password_hash, display_name, role)
       select 'bench-' || r || '-' || i || '@example.test', 'x', initcap(r) || ' ' || i, r
         from generate_series(1, ?) i, unnest(array['customer', 'seller']) r
       returning id, role`,
      [COUNT],
    )) as { rows: { id: number; role: 'customer' | 'seller' }[] };
    const customers = users.rows.filter((u) => u.role === 'customer').map((u) => u.id);
    const sellers = users.rows.filter((u) => u.role === 'seller').map((u) => u.id);
    await knex.raw(
      `insert into sessions (id, user_id, expires_at)
       select 'bench-session-' || id, id, now() + interval '1 day' from users`,
    );
    const subs = new Map<string, { userId: number }>();
    const rows = users.rows.map((u) => {
      const s: FakeSubscriber = push.subscriber();
      subs.set(s.id, { userId: u.id });
      return {
        user_id: u.id,
        session_id: `bench-session-${u.id}`,
        endpoint: s.endpoint,
        p256dh: s.keys.p256dh,
        auth: s.keys.auth,
        locale: 'en',
      };
    });
    await knex.batchInsert('push_subscriptions', rows, 1000);
    const dueAt = Math.ceil((Date.now() + DUE_IN_MS) / 1000) * 1000;
    const startsAt = new Date(dueAt + 15 * MINUTE);
    const endsAt = new Date(startsAt.getTime() + 30 * MINUTE);
    const now = new Date();
    const appointmentIds: number[] = [];
    await knex.transaction(async (trx) => {
      const rows = customers.map((c, i) => ({
        customer_id: c,
        seller_id: sellers[i],
        starts_at: startsAt,
        ends_at: endsAt,
        created_at: now,
        updated_at: now,
      }));
      const ids: { id: number }[] = [];
      for (let i = 0; i < rows.length; i += 1000)
        ids.push(
          ...((await trx('appointments')
            .insert(rows.slice(i, i + 1000))
            .returning('id')) as { id: number }[]),
        );
      for (const { id } of ids) {
        appointmentIds.push(id);
        await scheduleJobs(trx, id, startsAt, endsAt, now);
      }
    });
    await knex.raw('analyze');
    return { dueAt, subs, appointmentIds };
  } finally {
    await knex.destroy();
  }
}

async function oneRun(run: number, vapid: { publicKey: string; privateKey: string }): Promise<RunResult> {
  const push = new LocalPushService();
  await push.start();
  const caFile = push.writeCertificate();
  const t0 = Date.now();
  const { dueAt, subs, appointmentIds } = await setup(push);
  const setupMs = Date.now() - t0;
  if (Date.now() > dueAt - 10_000) throw new Error('setup took too long: the reminders are due already');
  const servers: ServerProcess[] = await Promise.all(
    Array.from({ length: PROCESSES }, () =>
      startServer({
        DATABASE_URL,
        SEED_DEMO: 'false',
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:ops@nagai.test',
        PUSH_ENDPOINT_HOSTS: new URL(push.origin).host,
        NODE_EXTRA_CA_CERTS: caFile,
      }),
    ),
  );
  const knex = openKnex(DATABASE_URL);
  try {
    if (Date.now() >= dueAt) throw new Error('the servers started after the reminders were due');
    for (const s of servers) s.resetUsage();
    const cpu0 = process.cpuUsage();
    const expected = COUNT * 2;
    let jobsDoneAt = 0;
    const deadline = dueAt + LIMIT_MS + 30_000;
    while (Date.now() < deadline) {
      if (!jobsDoneAt) {
        const { n } = (
          (await knex.raw(
            `select count(*)::int as n from jobs where kind = 'appointment_reminder' and state = 'pending'`,
          )) as { rows: { n: number }[] }
        ).rows[0];
        if (n === 0) jobsDoneAt = Date.now();
      }
      if (jobsDoneAt && push.received.length + push.errors.length >= expected) break;
      await sleep(100);
    }
    // Anything late or twice would arrive in the next polls: wait two more poll intervals.
    await sleep(11_000);
    const reminders = push.received.filter((r) => (r.payload as AppointmentPush).notice === 'reminder');
    const per = new Map<string, number>();
    for (const r of reminders) {
      const p = r.payload as AppointmentPush;
      const key = `${subs.get(r.subscriptionId)?.userId}:${p.appointmentId}`;
      per.set(key, (per.get(key) ?? 0) + 1);
    }
    const duplicates = [...per.values()].filter((n) => n > 1).length;
    const missing = expected - per.size;
    const times = reminders.map((r) => r.receivedAt).sort((a, b) => a - b);
    const inApp = Number(
      (
        (await knex.raw(
          `select count(*)::int as n from call_events
            where kind = 'appointment' and payload->>'notice' = 'reminder' and appointment_id = any(?)`,
          [appointmentIds],
        )) as { rows: { n: number }[] }
      ).rows[0].n,
    );
    const result: RunResult = {
      setupMs,
      firstMs: times.length ? times[0] - dueAt : NaN,
      lastMs: times.length ? times[times.length - 1] - dueAt : NaN,
      jobsDoneMs: jobsDoneAt ? jobsDoneAt - dueAt : NaN,
      pushes: reminders.length,
      duplicates,
      missing,
      inApp,
      failedPushes: push.errors.length,
      serverCpuSeconds: servers.map((s) => s.usage().cpuSeconds),
      doubleCpuSeconds: ((c) => (c.user + c.system) / 1e6)(process.cpuUsage(cpu0)),
    };
    console.log(`run ${run}:`, JSON.stringify(result));
    return result;
  } finally {
    await knex.destroy();
    await Promise.all(servers.map((s) => s.stop()));
    await push.stop();
    fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
  }
}

const count = (n: number) => n.toLocaleString('en-US');
const range = (xs: number[], digits = 1) => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return lo === hi ? fmt(lo, digits) : `${fmt(lo, digits)}–${fmt(hi, digits)}`;
};

async function main() {
  const vapid = webpush.generateVAPIDKeys();
  const results: RunResult[] = [];
  for (let i = 1; i <= RUNS; i++) results.push(await oneRun(i, vapid));
  const ok = results.every(
    (r) =>
      r.lastMs <= LIMIT_MS &&
      r.duplicates === 0 &&
      r.missing === 0 &&
      r.pushes === COUNT * 2 &&
      r.inApp === COUNT * 2,
  );
  const s = (ms: number) => ms / 1000;
  const [l1, l2] = os.loadavg();
  const md = `
## Appointment reminders (issue #22)

Command: \`npm run bench:reminders\` (${RUNS} runs), ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores shared by the database, both server processes and the push double; load average ${fmt(l1, 1)} ${fmt(l2, 1)}.

${count(COUNT)} booked appointments, each with its own shop, whose 15-minute reminders fall due at the same instant. ${PROCESSES} production server processes poll one PostgreSQL database's job table (every 5 s, batches of 500 claimed with \`for update skip locked\`); each reminder is written to the event log and pushed to the customer and to the jeweller: ${count(COUNT * 2)} pushes (VAPID-signed, aes128gcm-encrypted, over https) to the local push-service double, which verifies and decrypts each and counts it per subscription.

| | ${results.map((_, i) => `run ${i + 1}`).join(' | ')} | range |
| --- | ${results.map(() => '---:').join(' | ')} | ---: |
| due → first push received (s) | ${results.map((r) => fmt(s(r.firstMs), 1)).join(' | ')} | ${range(results.map((r) => s(r.firstMs)))} |
| due → every reminder job done (s) | ${results.map((r) => fmt(s(r.jobsDoneMs), 1)).join(' | ')} | ${range(results.map((r) => s(r.jobsDoneMs)))} |
| due → last push received (s) | ${results.map((r) => fmt(s(r.lastMs), 1)).join(' | ')} | ${range(results.map((r) => s(r.lastMs)))} |
| reminder pushes received | ${results.map((r) => count(r.pushes)).join(' | ')} | expected ${count(COUNT * 2)} |
| received twice / never | ${results.map((r) => `${r.duplicates} / ${r.missing}`).join(' | ')} | |
| in-app reminder notices (event log) | ${results.map((r) => count(r.inApp)).join(' | ')} | expected ${count(COUNT * 2)} |
| server CPU s (process 1 / 2) | ${results.map((r) => r.serverCpuSeconds.map((c) => fmt(c, 1)).join(' / ')).join(' | ')} | |
| push double CPU s (bench process) | ${results.map((r) => fmt(r.doubleCpuSeconds, 1)).join(' | ')} | |

${ok ? `All reminders went out within ${LIMIT_MS / 1000} s of falling due, each exactly once, in every run.` : '**Target missed in at least one run** (see the table).'} The time includes up to one poll interval (5 s) before the first claim. Setup (not measured) took ${range(results.map((r) => s(r.setupMs)))} s a run.
`;
  writeSection('appointment-reminders', md);
  console.log(md);
  if (!ok) process.exitCode = 1;
}

await main();
