/** Longest name a message quotes; the rest is cut with an ellipsis. */
const MAX_QUOTED = 60;

/** Words a mail reader could follow: addresses with a scheme, `www.`, e-mail addresses, bare domains. */
const LINK_LIKE = /^(?:[a-z][a-z0-9+.-]*:\S|www\.)|@|^[^\s/]+\.[a-z]{2,}(?:[/:?#]|$)/i;

/** Line breaks, other control characters and invisible direction marks. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}\u200b-\u200f\u202a-\u202e\u2066-\u2069]+/gu;

/**
 * Text a person chose (a site's name) as one line of a subject, a mail or a printed report: line
 * breaks, other control characters and invisible direction marks become one space, and spaces
 * around it go. A subject can then carry no header line of its own, and a name no second line.
 * @example oneLine('Okafor\r\nBcc: eve@evil.example') // 'Okafor Bcc: eve@evil.example'
 */
export function oneLine(text: string): string {
  return text
    .replace(BREAKS, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * A display name as mail quotes it to its recipient: the name is free text that its holder chose
 * (an installer's name reaches any account's mailbox through create-owner), so it must not read
 * as the message's own words. Line breaks and other control characters become spaces, anything a
 * mail reader could show as a link is left out, quotes inside become single quotes, and the rest
 * is cut to 60 characters and put in quotes.
 * @example quotedName('Eve\nClick https://evil.example/login') // '“Eve Click”'
 */
export function quotedName(name: string): string {
  const words = oneLine(name)
    .split(/\s+/)
    .filter((word) => word !== '' && !LINK_LIKE.test(word));
  let text = words.join(' ').replace(/["“”]/g, "'");
  if (text.length > MAX_QUOTED) text = `${text.slice(0, MAX_QUOTED - 1).trimEnd()}…`;
  return text ? `“${text}”` : 'A Fleet Manager user';
}
