/**
 * Mail providers anyone can sign up with: an address there says nothing about a company, so its
 * holder's company is that one address (they share templates with no one).
 */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'yandex.ru',
  'qq.com',
  '163.com',
]);

/** What an e-mail address says of its holder's company, as before companies were records. */
export interface DomainKey {
  /** `domain:solarpros.example`, or at a public mail provider `person:sam@gmail.com`. */
  origin: string;
  /** The domain, a company's first name (`solarpros.example`). */
  name: string;
  /** Whether the address is at a public mail provider: a company of one. */
  person: boolean;
}

/**
 * The company an address stood for: its domain (`installer@solarpros.example` →
 * `domain:solarpros.example`), or, at a public mail provider, the address itself
 * (`person:sam@gmail.com`). Migration 19 made one company per key; an installer an admin creates
 * joins the company of their key.
 * @example domainKeyOf('Sam@SolarPros.example').origin // 'domain:solarpros.example'
 */
export function domainKeyOf(email: string): DomainKey {
  const address = email.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const person = PUBLIC_MAIL_DOMAINS.has(domain);
  return { origin: person ? `person:${address}` : `domain:${domain}`, name: domain, person };
}
