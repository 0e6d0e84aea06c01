import { GST_STATES } from './pricing';

/**
 * India's states and union territories as the checkout offers them (issue #40 item 5, docs/product-rules.md
 * §10): the GST state code is the option's value, its name is shown from the locales (`states.<code>`, English
 * and Tamil), and the PIN code must belong to it. A PIN code's first two digits name its postal circle; a state
 * accepts the circles that serve it (Puducherry's districts lie in three, the north-east shares 79).
 * "Other Territory" (97) is a GST code with no postal address, so it is not offered.
 */
export const STATE_PIN_PREFIXES: Readonly<Record<string, readonly string[]>> = {
  '01': ['18', '19'],
  '02': ['17'],
  '03': ['14', '15', '16'],
  '04': ['16'],
  '05': ['24', '26'],
  '06': ['12', '13'],
  '07': ['11'],
  '08': ['30', '31', '32', '33', '34'],
  '09': ['20', '21', '22', '23', '24', '25', '26', '27', '28'],
  '10': ['80', '81', '82', '83', '84', '85'],
  '11': ['73'],
  '12': ['79'],
  '13': ['79'],
  '14': ['79'],
  '15': ['79'],
  '16': ['79'],
  '17': ['79'],
  '18': ['78'],
  '19': ['70', '71', '72', '73', '74'],
  '20': ['81', '82', '83', '84', '85'],
  '21': ['75', '76', '77'],
  '22': ['49'],
  '23': ['45', '46', '47', '48'],
  '24': ['36', '37', '38', '39'],
  '26': ['36', '39'],
  '27': ['40', '41', '42', '43', '44'],
  '29': ['56', '57', '58', '59'],
  '30': ['40'],
  '31': ['68'],
  '32': ['67', '68', '69'],
  '33': ['60', '61', '62', '63', '64'],
  '34': ['53', '60', '67'],
  '35': ['74'],
  '36': ['50'],
  '37': ['50', '51', '52', '53'],
  '38': ['19'],
};

/** The codes the checkout offers, in the order of their English names. */
export const SHIPPING_STATE_CODES: readonly string[] = Object.keys(STATE_PIN_PREFIXES).sort((a, b) =>
  GST_STATES[a].localeCompare(GST_STATES[b], 'en'),
);

/** True when the PIN code can be in the state (its postal circle serves the state). */
export const pinCodeInState = (pinCode: string, stateCode: string): boolean =>
  STATE_PIN_PREFIXES[stateCode]?.includes(pinCode.slice(0, 2)) ?? false;
