import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TwilioDouble } from '../../api/src/doubles/twilio-double';
import { START_KEYWORDS, STOP_KEYWORDS } from '../../api/src/features/notices/keywords';
import { buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { signIn } from './checkout-support';

/**
 * STOP and START as Indian senders must honour them (issue #46 item 11, docs/security.md): the English
 * keywords and the Hindi and Tamil words people send, in their script and romanised, whatever the case, the
 * spaces around them or the Unicode form (NFC or NFD), each through Twilio's signed webhook (the double).
 */
let api: TestApi;
let double: TwilioDouble;
beforeAll(async () => {
  api = await startTestApi();
  double = (await api.handle.deps.sms!.double())!;
});
afterAll(async () => api?.close());

/** The words the rule names; the module may know more forms (each of those is tried too). */
const REQUIRED_STOP = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'रोकें',
  'बंद',
  'बंद करो',
  'band',
  'band karo',
  'ruko',
  'நிறுத்து',
  'நிறுத்தவும்',
  'niruthu',
  'nirutthu',
];
const REQUIRED_START = ['START', 'UNSTOP', 'YES', 'शुरू', 'தொடங்கு'];

let seq = 0;
/** A customer with a verified mobile (the switch is set directly between messages: only the webhook is tried). */
async function person(): Promise<{ mobile: string; client: ApiClient }> {
  const user = await buildUser(api.db.knex, { role: 'customer' });
  const mobile = `+916${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;
  await api.db.knex('users').where({ id: user.id }).update({ mobile, mobile_verified_at: new Date() });
  return { mobile, client: await signIn(api, user) };
}

const noticesOn = async (mobile: string) =>
  ((await api.db.knex('users').where({ mobile }).first('notices')) as { notices: boolean }).notices;
const setNotices = (mobile: string, on: boolean) =>
  api.db.knex('users').where({ mobile }).update({ notices: on });

/** The same word as people may send it: lower case, padded, and in Unicode's decomposed form (NFD). */
const variants = (word: string) => [
  ...new Set([word, `  ${word.toLowerCase()}\n`, word.normalize('NFD'), `${word}.`]),
];

describe('STOP in English, Hindi and Tamil', () => {
  it('every STOP keyword, in any case, padded, NFD or with a full stop, ends the notices', async () => {
    const p = await person();
    const words = [...new Set([...REQUIRED_STOP, ...STOP_KEYWORDS])];
    const failed: string[] = [];
    let sends = 0;
    for (const word of words) {
      for (const sent of variants(word)) {
        await setNotices(p.mobile, true);
        expect(await double.receive(p.mobile, sent)).toBe(200);
        sends++;
        if (await noticesOn(p.mobile)) failed.push(JSON.stringify(sent));
      }
    }
    expect(failed).toEqual([]);
    // Each is stored as a withdrawn consent from an SMS STOP.
    const stops = await api.db
      .knex('notice_consents')
      .join('users', 'users.id', 'notice_consents.user_id')
      .where({ 'users.mobile': p.mobile, granted: false, source: 'sms_stop' })
      .count<{ n: string | number }[]>('notice_consents.id as n');
    expect(Number(stops[0].n)).toBe(sends);
  });

  it('every START keyword turns them on again', async () => {
    const p = await person();
    const words = [...new Set([...REQUIRED_START, ...START_KEYWORDS])];
    const failed: string[] = [];
    for (const word of words) {
      for (const sent of variants(word)) {
        await setNotices(p.mobile, false);
        expect(await double.receive(p.mobile, sent)).toBe(200);
        if (!(await noticesOn(p.mobile))) failed.push(JSON.stringify(sent));
      }
    }
    expect(failed).toEqual([]);
  });

  it('a message that only contains a keyword is not one', async () => {
    const p = await person();
    await setNotices(p.mobile, true);
    for (const sent of ['please stop the delivery', 'बंद है क्या?', 'நிறுத்து இல்லை', 'stopped', 'bandh'])
      expect(await double.receive(p.mobile, sent)).toBe(200);
    expect(await noticesOn(p.mobile)).toBe(true);
    // The profile shows the same: notices on.
    expect((await p.client.get('/_api/user/notices')).body).toMatchObject({ notices: true });
  });
});
