import { Select, Text } from '@mantine/core';
import { useMemo } from 'react';
import { type Control, useWatch } from 'react-hook-form';
import { ADDRESS_PART_KEYS } from '../../components/address/address-line.ts';
import { countries } from '../../components/address/countries.ts';
import {
  addressLine,
  type KnownLine,
  partsListed,
  siteZone,
  ZONE_FIELDS,
  type ZoneValues,
  zoneSuggestedFor,
} from './site-address.ts';
import type { SiteFormValues } from './site-form-schema.ts';
import { TimeZoneSelect } from './time-zone-select.tsx';

// The pieces of the site form that follow what is typed. Each watches only the fields it shows,
// so a key typed in the site's name draws none of them, and one typed in a part draws these
// pieces, not the whole form.

/** The address line made from the parts as they are typed, or the saved or picked line while it fits them. */
export function AddressLineText({
  control,
  known,
}: {
  control: Control<SiteFormValues>;
  known: KnownLine | null;
}) {
  const line = addressLine(known, partsListed(useWatch({ control, name: ADDRESS_PART_KEYS })));
  return (
    <div>
      <Text size="sm" fw={500}>
        Address line
      </Text>
      <Text data-testid="address-line" c={line ? undefined : 'dimmed'}>
        {line || 'Made from the fields above as you type them'}
      </Text>
    </div>
  );
}

/** The site's zone: the one picked or saved, else the one the position and country suggest. */
export function SiteZoneField({
  control,
  saved,
  picked,
  onPick,
}: {
  control: Control<SiteFormValues>;
  saved: ZoneValues;
  picked: boolean;
  onPick: (zone: string) => void;
}) {
  const [latitude, longitude, country, timeZone] = useWatch({ control, name: ZONE_FIELDS });
  const values = { latitude, longitude, country, timeZone };
  return (
    <TimeZoneSelect
      value={siteZone(values, saved, picked)}
      suggested={zoneSuggestedFor(values)}
      onChange={onPick}
    />
  );
}

/** The country, chosen from the list; one saved as typed before the list ("Germny") is named under it. */
export function CountryField({
  control,
  error,
  onChange,
}: {
  control: Control<SiteFormValues>;
  error: string | undefined;
  onChange: (code: string) => void;
}) {
  const country = useWatch({ control, name: 'country' });
  const countryList = useMemo(() => countries().map((c) => ({ value: c.code, label: c.name })), []);
  const unlisted = country !== '' && !countryList.some((c) => c.value === country) ? country : null;
  return (
    <Select
      label="Country"
      required
      searchable
      placeholder="Type to search the list"
      nothingFoundMessage="No country of that name"
      data={countryList}
      value={unlisted ? null : country}
      onChange={(value) => onChange(value ?? '')}
      allowDeselect={false}
      description={unlisted ? `Saved as “${unlisted}”: choose it from the list` : undefined}
      error={error}
    />
  );
}
