import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyLanguage, initI18n, loadAreas, translateMessage } from '../../pwa/src/lib/i18n';

/**
 * Every message the API (or a contract schema) can answer is shown in the reader's language (issue #40 item 8):
 * the PWA finds a server message by its English words among `messages.*` (lib/i18n.ts translateMessage), so
 * each text of every `*_MESSAGES` list of api/contract must be there, word for word, with its Tamil. A message
 * with values ("{n}", "{name}") is found with any values filled in.
 */

const CONTRACT = path.join(__dirname, '../../api/contract');

async function contractMessages(): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const file of fs.readdirSync(CONTRACT).filter((f) => f.endsWith('.ts'))) {
    const mod = (await import(path.join(CONTRACT, file))) as Record<string, unknown>;
    for (const [name, list] of Object.entries(mod)) {
      if (!name.endsWith('_MESSAGES') || !list || typeof list !== 'object') continue;
      for (const [id, text] of Object.entries(list as Record<string, unknown>))
        if (typeof text === 'string') out.push([`${file} ${name}.${id}`, text]);
    }
  }
  return out;
}

/** The text with each {placeholder} filled with a value of its own (digits, so no language owns it). */
const filled = (text: string) => {
  let n = 0;
  return text.replace(/\{\w+\}/g, () => `${++n}7${n}`);
};

let messages: [string, string][] = [];
beforeAll(async () => {
  messages = await contractMessages();
  await initI18n('en');
  await loadAreas(['messages']);
  await applyLanguage('ta');
});
afterAll(async () => {
  await applyLanguage('en');
});

describe('the server’s messages in Tamil', () => {
  it('reads the messages of every contract module', () => {
    expect(messages.length).toBeGreaterThan(300);
    expect(messages.map(([id]) => id)).toEqual(
      expect.arrayContaining([
        'appointments.ts APPOINTMENT_MESSAGES.alreadyBooked',
        'products-csv.ts PRODUCT_CSV_MESSAGES.unknownColumn',
        'invoices.ts PRICING_MESSAGES.huidRequired',
      ]),
    );
  });

  it('translates every one of them, values kept, into Tamil script', () => {
    const untranslated: string[] = [];
    for (const [id, text] of messages) {
      const english = filled(text);
      const tamil = translateMessage(english);
      const values = english.match(/\d7\d/g) ?? [];
      if (tamil === english || !/[\u0B80-\u0BFF]/.test(tamil) || values.some((v) => !tamil.includes(v)))
        untranslated.push(`${id}: ${text}`);
    }
    expect(untranslated).toEqual([]);
  });

  it('answers a second booking with the same shop in Tamil', () => {
    expect(translateMessage('You already have a booked appointment with this shop.')).toBe(
      'இந்தக் கடையிடம் ஏற்கனவே உங்களுக்கு ஒரு சந்திப்பு முன்பதிவில் உள்ளது.',
    );
  });
});
