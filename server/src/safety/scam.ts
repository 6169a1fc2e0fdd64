import { SAFETY_LIMITS, type ScamFlag } from '@campus/contract';
import { foldText } from './fold.js';

/**
 * The anti-scam guard's patterns, as data (features.md §C): each flag lists regular expressions run
 * on the message folded (fold.ts: lower case, no invisible characters or look-alikes). `early` patterns (contact details and links) count only in the first
 * SAFETY_LIMITS.earlyMessages messages of a conversation, where scammers move students off the app.
 * scam.test.ts lists real scam messages that must be flagged and ordinary ones that must not.
 */
export interface ScamPattern {
  flag: ScamFlag;
  patterns: readonly RegExp[];
  early?: boolean;
}

const PAY_APPS = String.raw`(?:venmo|zelle|cash ?app|cashapp|paypal|apple ?pay|google ?pay|chime|wire transfer|bank transfer|western union|moneygram|bitcoin|btc|crypto|usdt)`;
const FIRST = String.raw`(?:first|upfront|up front|up-front|in advance|ahead of time|before (?:we|i|you) (?:meet|ship|send|hand)|before meeting|to (?:hold|reserve|secure))`;

export const SCAM_PATTERNS: readonly ScamPattern[] = [
  {
    flag: 'PAY_FIRST',
    patterns: [
      // A payment app and "first/upfront/to hold it" in the same message, in either order.
      new RegExp(String.raw`\b${PAY_APPS}\b[^.!?\n]{0,60}\b${FIRST}`),
      new RegExp(String.raw`\b${FIRST}\b[^.!?\n]{0,60}\b${PAY_APPS}\b`),
      /\b(?:pay|send|transfer)\b[^.!?\n]{0,30}\b(?:a |the |small |refundable )?deposit\b/,
      /\bdeposit\b[^.!?\n]{0,40}\b(?:venmo|zelle|cash ?app|paypal|to hold|to reserve|first|before)\b/,
      /\b(?:pay|send)(?: me)?(?: the)?(?: money| payment| half)? (?:first|upfront|up front|in advance)\b/,
    ],
  },
  {
    flag: 'GIFT_CARD',
    patterns: [
      /\bgift ?cards?\b/,
      /\b(?:itunes|apple|steam|google play|amazon|ebay|sephora|visa|vanilla) (?:gift )?cards?\b/,
    ],
  },
  {
    flag: 'SHIPPING',
    patterns: [
      /\b(?:shipping|ship (?:it|this|them|the item)|courier|fedex|dhl|usps|ups (?:store|label|shipping))\b/,
      /\b(?:my|a) (?:mover|moving company|delivery agent|pick-?up agent|agent will)\b/,
      /\bout of (?:town|state|the country)\b[^.!?\n]{0,60}\b(?:send|ship|deliver|pick ?up)\b/,
    ],
  },
  {
    flag: 'VERIFICATION_CODE',
    patterns: [
      /\b(?:send|give|tell|forward|share|read)(?: me)?(?: back)? (?:the|your|that|this)?\s?(?:\d[- ]digit |6 digit |six digit |verification |confirmation |security |google voice |text )?(?:code|pin)\b/,
      /\bcode (?:you|that you) (?:got|received|just got)\b/,
      /\b(?:\d|four|six)[- ]?digit (?:code|pin)\b/,
      /\b(?:verification|confirmation|security|google voice) code\b/,
    ],
  },
  {
    flag: 'STUDENT_ID',
    patterns: [
      /\b(?:photo|picture|pic|scan|copy|image|selfie)\b[^.!?\n]{0,25}\b(?:student )?id(?: card)?\b/,
      /\b(?:send|show)(?: me)? (?:your|a) (?:student |school |msu )?id\b/,
      /\bstudent id (?:photo|picture|pic|number|card)\b/,
    ],
  },
  {
    flag: 'OVERPAYMENT',
    patterns: [
      /\boverpa(?:y|id|ying|yment)\b/,
      /\b(?:sent|paid|send)(?: you)? (?:too much|more than|extra)\b/,
      /\b(?:refund|send back|return)(?: me)? the (?:difference|extra|rest|balance|excess)\b/,
    ],
  },
  {
    flag: 'CONTACT_OFF_APP',
    early: true,
    patterns: [
      // Phone numbers: 10 digits with optional separators, or +country code.
      /(?:\+\d{1,3}[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b/,
      // E-mail addresses.
      /\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b/,
      // Links.
      /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]+\.(?:com|net|org|io|ly|me|co|app|link|xyz|info|biz)(?:\/|\b)/,
      /\b(?:text|call|whatsapp|telegram|signal|imessage|snap(?:chat)?|wechat)\s+me\b/,
    ],
  },
];

/**
 * Flags for a message. `earlierMessages` is how many messages the conversation held before it
 * (contact details are flagged only early on). Nothing is ever blocked: flags are a warning.
 */
export function scamFlags(
  content: string,
  earlierMessages: number,
  patterns: readonly ScamPattern[] = SCAM_PATTERNS,
): ScamFlag[] {
  // Folded like prohibited terms: invisible characters and look-alikes do not hide a pattern.
  const text = foldText(content).replace(/\s+/g, ' ');
  if (text.trim() === '') return [];
  const early = earlierMessages < SAFETY_LIMITS.earlyMessages;
  return patterns
    .filter((p) => (!p.early || early) && p.patterns.some((re) => re.test(text)))
    .map((p) => p.flag);
}
