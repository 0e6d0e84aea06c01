/**
 * The words a person may send back to end or restart notices by SMS or WhatsApp (issue #46 item 11,
 * docs/security.md, docs/operations.md "Point the Messaging Service's incoming message webhook").
 *
 * STOP: a sender to Indian numbers must honour an opt-out in the words people actually send, not only in
 * English: the English keywords carriers and Twilio know (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT), and
 * "stop" / "close" / "stop it" in Hindi and Tamil, in their own script and romanised as people type them.
 * START: the English keywords (START, UNSTOP, YES) and "start" in Hindi and Tamil script. Consent needs a clear
 * yes, so START is kept to these; an opt-out is honoured generously, so STOP has more forms.
 *
 * A message is a keyword when, as a whole, it equals one of these once normalised (normaliseKeyword):
 * Unicode NFC, zero-width joiners removed, trimmed, inner spaces made one, surrounding punctuation removed,
 * upper-cased. Longer messages ("please stop the order") are not keywords.
 */
export const STOP_KEYWORDS: readonly string[] = [
  // English (carriers' and Twilio's standard opt-out words)
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  // Hindi: "stop" (रोकें, रोको, रुको), "closed / turn off" (बंद, बंद करो, बंद करें), and romanised
  'रोकें',
  'रोको',
  'रुको',
  'बंद',
  'बंद करो',
  'बंद करें',
  'BAND',
  'BAND KARO',
  'BAND KAREN',
  'BAND KARE',
  'BUND',
  'BUND KARO',
  'RUKO',
  'ROKO',
  // Tamil: "stop" (நிறுத்து, polite நிறுத்தவும், நிறுத்துங்கள்), and romanised
  'நிறுத்து',
  'நிறுத்தவும்',
  'நிறுத்துங்கள்',
  'NIRUTHU',
  'NIRUTTHU',
  'NIRUTHTHU',
  'NIRUTHAVUM',
  'NIRUTTHAVUM',
];

export const START_KEYWORDS: readonly string[] = [
  // English
  'START',
  'UNSTOP',
  'YES',
  // Hindi "start"
  'शुरू',
  // Tamil "start"
  'தொடங்கு',
];

/** Surrounding punctuation people add ("Stop.", "STOP!", Hindi's danda "।"). */
const EDGE_PUNCTUATION = /^[\s.,!?;:'"()\u0964\u0965-]+|[\s.,!?;:'"()\u0964\u0965-]+$/gu;
/** Zero-width (non-)joiners and the byte-order mark: Indic keyboards insert them; they change no letter. */
const INVISIBLES = /[\u200b-\u200d\u2060\ufeff]/gu;

/** A message as compared with the keywords: NFC, invisibles out, trimmed, one space, no edge punctuation, upper case. */
export function normaliseKeyword(text: string): string {
  return text
    .normalize('NFC')
    .replace(INVISIBLES, '')
    .replace(/\s+/gu, ' ')
    .replace(EDGE_PUNCTUATION, '')
    .toUpperCase();
}

const STOPS = new Set(STOP_KEYWORDS.map(normaliseKeyword));
const STARTS = new Set(START_KEYWORDS.map(normaliseKeyword));

/** What an inbound message asks: 'stop' (end notices), 'start' (notices again), or nothing. */
export function keywordOf(text: string): 'stop' | 'start' | undefined {
  const word = normaliseKeyword(text);
  if (STOPS.has(word)) return 'stop';
  if (STARTS.has(word)) return 'start';
  return undefined;
}
