/**
 * Company staff (specification §2 and §6): the signed-in e-mail ends with `@` and the company
 * domain, compared case-insensitively. The one rule the server's decisions (raw frames to devices,
 * what the command log shows) and the app's menu (Site Manager, Remote Debugger) both use. A role
 * does not make anyone staff; an address in the company domain is given only by an admin.
 * @example isCompanyStaffEmail('Staff@Fleet.Example', 'fleet.example') // true
 * @example isCompanyStaffEmail('x@sub.fleet.example', 'fleet.example') // false
 */
export function isCompanyStaffEmail(email: string | null | undefined, companyDomain: string): boolean {
  const domain = companyDomain.trim().replace(/^@/, '').toLowerCase();
  return typeof email === 'string' && domain !== '' && email.toLowerCase().endsWith(`@${domain}`);
}
