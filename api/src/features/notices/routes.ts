import { NoticeSettingsSchema } from '../../../contract/mobile';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint, rawEndpoint } from '../../http/endpoint';
import { badRequest, forbidden } from '../../http/errors';
import { recordConsent } from '../accounts/mobile';
import { handleInboundMessage, noticeSettingsOf } from './service';

const MAX_WEBHOOK_BYTES = 16_384;

/** The notice settings of the profile, and Twilio's webhook for a message received ("STOP"). */
export const noticesFeature: Feature = (router) => {
  endpoint(router, R.noticeSettings, {
    handle: (deps, user) => noticeSettingsOf(deps.db, user.id),
  });

  endpoint(router, R.noticeSettingsSet, {
    input: NoticeSettingsSchema,
    handle: async (deps, user, input) => {
      const current = await noticeSettingsOf(deps.db, user.id);
      const locale = input.locale ?? current.locale;
      if (input.notices && !current.mobile) {
        throw badRequest('Add and verify a mobile number in your profile first.', 'no_verified_mobile');
      }
      if (input.notices !== current.notices || locale !== current.locale) {
        await deps.db.transaction((trx) =>
          recordConsent(trx, user.id, input.notices, 'profile', locale, deps.clock.now()),
        );
      }
      return noticeSettingsOf(deps.db, user.id);
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
    await handleInboundMessage(
      ctx.deps,
      params.From ?? '',
      params.Body ?? '',
      (trx, userId, granted, locale) =>
        recordConsent(trx, userId, granted, granted ? 'sms_start' : 'sms_stop', locale, ctx.deps.clock.now()),
    );
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/xml';
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
  });
};
