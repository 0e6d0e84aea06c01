import crypto from 'node:crypto';

const hmacHex = (secret: string, data: string | Buffer) =>
  crypto.createHmac('sha256', secret).update(data).digest('hex');

/** Compares two hex digests in constant time (a different length is simply unequal). */
function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** Checkout's signature: HMAC-SHA256 of `order_id|payment_id` with the key secret. */
export function isValidPaymentSignature(
  keySecret: string,
  gatewayOrderId: string,
  paymentId: string,
  signature: string,
): boolean {
  return sameHex(hmacHex(keySecret, `${gatewayOrderId}|${paymentId}`), signature);
}

/** A webhook's X-Razorpay-Signature: HMAC-SHA256 of the raw body, exactly as received, with the webhook secret. */
export function isValidWebhookSignature(webhookSecret: string, rawBody: string, signature: string): boolean {
  return sameHex(hmacHex(webhookSecret, rawBody), signature);
}
