/**
 * The countries a site can be in: ISO 3166-1 alpha-2 codes (what the maps control gives as a
 * country's short name, and what a site stores), named in the reader's language by the browser
 * (`Intl.DisplayNames`), so the list needs no table of names. Kosovo's `XK`, which is not in the
 * standard but which the maps service and banks use, is included.
 */
const CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS ' +
  'BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE ' +
  'EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM ' +
  'HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC ' +
  'LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA ' +
  'NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO ' +
  'TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

/** Whether `code` is one of the list's codes (upper case). */
export const isCountryCode = (code: string): boolean => CODES.includes(code);

export interface Country {
  /** ISO 3166-1 alpha-2, upper case: `DE`. */
  code: string;
  /** In the reader's language: `Germany`, `Deutschland`. */
  name: string;
}

/**
 * Every country, named in `locale` (the browser's by default) and sorted by that name as its
 * language sorts.
 * @example countries('en').find((c) => c.code === 'DE')?.name // 'Germany'
 */
export function countries(locale?: string): Country[] {
  const names = new Intl.DisplayNames(locale, { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(locale);
  return CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
    collator.compare(a.name, b.name),
  );
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase();

/**
 * The code of a country as saved before the list existed, when it can be told: a code in either
 * case (`de`), or the country's name in the reader's language or in English (`Germany`,
 * `Österreich`); otherwise null, and the person picks it again.
 * @example countryCodeOf('germany') // 'DE'
 */
export function countryCodeOf(saved: string, locale?: string): string | null {
  const text = fold(saved);
  if (text === '') return null;
  const upper = text.toUpperCase();
  if (CODES.includes(upper)) return upper;
  for (const list of [countries(locale), countries('en')]) {
    const found = list.find((country) => fold(country.name) === text);
    if (found) return found.code;
  }
  return null;
}
