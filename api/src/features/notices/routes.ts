import { MOBILE_MESSAGES as M, NoticeSettingsSchema } from '../../../contract/mobile';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint, rawEndpoint } from '../../http/endpoint';
import { badRequest, forbidden } from '../../http/errors';
import { sha256Key } from '../../http/webhook-receipts';
import { recordConsent } from '../accounts/mobile';
import { handleInboundMessage, noticeSettingsOf } from './service';

const MAX_WEBHOOK_BYTES = 16_384;

/**
 * The notice settings of the profile, and Twilio's webhook for a message received ("STOP"), acted on once per
 * MessageSid (a replay is answered 200 with nothing done).
 */
export const noticesFeature: Feature = (router) => {
  endpoint(router, R.noticeSettings, {
    handle: (deps, user) => noticeSettingsOf(deps, user.id),
  });

  // The profile's switch, channel and language: every change is stored as a consent with the wording shown.
  endpoint(router, R.noticeSettingsSet, {
    input: NoticeSettingsSchema,
    handle: async (deps, user, input) => {
      const current = await noticeSettingsOf(deps, user.id);
      const locale = input.locale ?? current.locale;
      const channel = input.channel ?? current.channel;
      if (input.notices && !current.mobile) {
        throw badRequest(M.noVerifiedMobile, 'no_verified_mobile');
      }
      if (input.channel && !current.channels.includes(input.channel)) {
        throw badRequest(M.whatsappUnavailable, 'channel_unavailable');
      }
      if (input.timeZone) await deps.db('users').where({ id: user.id }).update({ time_zone: input.timeZone });
      if (input.notices !== current.notices || locale !== current.locale || channel !== current.channel) {
        await deps.db.transaction((trx) =>
          recordConsent(trx, user.id, input.notices, 'profile', locale, deps.clock.now(), channel),
        );
      }
      return noticeSettingsOf(deps, user.id);
    },
  });

  // Form-encoded and signed with the account's auth token (X-Twilio-Signature over the URL and the form).
  rawEndpoint(router, R.twilioInboundSms, async (ctx) => {
    const sms = ctx.deps.sms;
    if (!sms) throw forbidden('Not configured.', 'not_configured');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_WEBHOOK_BYTES) throw badRequest('Too large.', 'too_large');
      chunks.push(chunk);
    }
    const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const url = `${ctx.deps.config.publicOrigin ?? `${ctx.protocol}://${ctx.host}`}${ctx.originalUrl}`;
    if (!sms.validWebhook(ctx.get('X-Twilio-Signature'), url, params)) {
      throw forbidden('Invalid signature.', 'invalid_signature');
    }
    // Twilio names every message by its MessageSid, a signed parameter: a replayed message has the same one.
    // (Without it, which Twilio never does, the signed parameters themselves stand in.)
    const messageKey =
      params.MessageSid ||
      sha256Key(
        Object.keys(params)
          .sort()
          .map((k) => `${k}=${params[k]}`)
          .join('&'),
      );
    await handleInboundMessage(
      ctx.deps,
      messageKey,
      params.From ?? '',
      params.Body ?? '',
      (trx, userId, granted, locale, channel) =>
        recordConsent(
          trx,
          userId,
          granted,
          granted ? 'sms_start' : 'sms_stop',
          locale,
          ctx.deps.clock.now(),
          channel,
        ),
    );
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/xml';
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
  });
};
