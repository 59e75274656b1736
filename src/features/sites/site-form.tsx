import { zodResolver } from '@hookform/resolvers/zod';
import { Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import type { Save } from '../../app/use-save.ts';
import { AddressInput, useMapsSuggestions } from '../../components/address/address-input.tsx';
import {
  ADDRESS_PART_KEYS,
  type AddressParts,
  composeAddressLine,
} from '../../components/address/address-line.ts';
import {
  type AddressRecord,
  type PlaceLike,
  postalCodeText,
} from '../../components/address/address-record.ts';
import { countries, countryCodeOf } from '../../components/address/countries.ts';
import type { AutocompleteOptions } from '../../components/address/maps-loader.ts';
import { FormFooter } from '../../components/form-footer.tsx';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
import { OwnerSelect } from './owner-select.tsx';
import {
  addressLine,
  afterPartEdited,
  type KnownLine,
  partsOf,
  savedLine,
  siteZone,
  zoneSuggestedFor,
} from './site-address.ts';
import { type SiteFormValues, siteFormSchema } from './site-form-schema.ts';
import { TimeZoneSelect } from './time-zone-select.tsx';

interface SiteFormProps {
  /** `create` asks for the name and an owner too; `address` edits the address only. */
  mode: 'create' | 'address';
  defaultValues: SiteFormValues;
  owners?: User[];
  submitLabel: string;
  /**
   * Sends the values through the screen's `useSave`, whose state `save` is: its failure is shown
   * above the button and the form keeps what was typed.
   */
  onSave: (values: SiteFormValues) => void;
  save: Pick<Save<unknown>, 'pending' | 'error' | 'holdsEdits'>;
  onCancel: () => void;
}

const SUGGEST: AutocompleteOptions = { types: ['address'] };

/**
 * The site form. The address is structured: street and number, postal code, town, state and
 * country; the address line is made from them, so the two never say different things. With the
 * maps suggestions, picking a place fills the parts and the position (its own line is kept while
 * the parts are unchanged); without them the person types the parts, as the hint says, and
 * nothing about the maps failure is shown (specification §8). Street, town and country are
 * needed: nothing saves a half-filled address.
 */
export function SiteForm({
  mode,
  defaultValues,
  owners = [],
  submitLabel,
  onSave,
  save,
  onCancel,
}: SiteFormProps) {
  const { config } = useRuntime();
  const maps = useMapsSuggestions(config.mapsApiKey);
  const form = useForm<SiteFormValues>({ resolver: zodResolver(siteFormSchema), defaultValues });
  const { errors, isDirty } = form.formState;
  useUnsavedWork(
    { id: 'site-form', kind: 'form', label: mode === 'create' ? 'New site' : 'Site address' },
    save.holdsEdits(isDirty),
  );
  const [known, setKnown] = useState<KnownLine | null>(() => savedLine(defaultValues));
  const [positionNote, setPositionNote] = useState(false);
  // A zone the person picked stays; otherwise the zone follows the position and country.
  const [zonePicked, setZonePicked] = useState(false);
  const values = form.watch();
  const suggested = zoneSuggestedFor(values);
  const zone = siteZone(values, defaultValues, zonePicked);
  const line = addressLine(known, partsOf(values));

  const set = (name: keyof SiteFormValues, value: string) =>
    form.setValue(name, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  /** A part changed by hand: a line or place picked for other parts no longer describes them. */
  const partChanged = (name: keyof AddressParts, value: string) => {
    set(name, value);
    const edit = afterPartEdited(known, partsOf(form.getValues()));
    if (edit.clearPosition) {
      set('latitude', '');
      set('longitude', '');
      setPositionNote(true);
    }
    if (edit.clearPlace) set('placeId', '');
    setKnown(edit.known);
  };
  const fillFromPlace = (
    record: AddressRecord,
    position: { latitude: number; longitude: number },
    place: PlaceLike,
  ) => {
    const picked: AddressParts = {
      streetNumber: record.streetNumber,
      streetName: record.streetName,
      postalCode: postalCodeText(place),
      locality: record.locality.long,
      state: record.state.short || record.state.long,
      country: countryCodeOf(record.country.short) ?? countryCodeOf(record.country.long) ?? '',
    };
    for (const key of ADDRESS_PART_KEYS) set(key, picked[key]);
    set('placeId', record.placeID);
    const hasPosition = position.latitude !== -1 || position.longitude !== -1;
    set('latitude', hasPosition ? String(position.latitude) : '');
    set('longitude', hasPosition ? String(position.longitude) : '');
    setPositionNote(false);
    setKnown({ line: record.displayAddress || composeAddressLine(picked), parts: picked, picked: true });
  };
  const part = (name: keyof AddressParts, label: string, required = false) => (
    <TextInput
      label={label}
      required={required}
      {...form.register(name)}
      onChange={(event) => partChanged(name, event.currentTarget.value)}
      error={errors[name]?.message}
    />
  );
  const countryList = useMemo(() => countries().map((c) => ({ value: c.code, label: c.name })), []);
  const country = form.watch('country');
  // A country saved as typed, before the list, that is none of its entries ("Germny").
  const unlisted = country !== '' && !countryList.some((c) => c.value === country) ? country : null;
  const pickZone = useCallback(
    (picked: string) => {
      setZonePicked(true);
      form.setValue('timeZone', picked, { shouldDirty: true });
    },
    [form],
  );
  const submit = form.handleSubmit((typed) => onSave({ ...typed, displayAddress: line, timeZone: zone }));
  return (
    <form onSubmit={submit} noValidate aria-label={mode === 'create' ? 'New site' : 'Site address'}>
      <Stack gap="md" maw={760}>
        {mode === 'create' ? (
          <TextInput label="Site name" required {...form.register('name')} error={errors.name?.message} />
        ) : null}
        {maps.state === 'ready' ? (
          <AddressInput
            label="Address search"
            description="Start typing and pick the address from the suggestions: the fields below fill in, and you can correct them."
            autocomplete={maps.factory}
            onPlace={fillFromPlace}
            options={SUGGEST}
          />
        ) : (
          <Text size="sm" id="address-hint">
            Type the address: street and number, postal code, town or city, state or region, and country. The
            address line is made from them.
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {part('streetName', 'Street', true)}
          {part('streetNumber', 'Street number')}
          {part('postalCode', 'Postal code')}
          {part('locality', 'Town or city', true)}
          {part('state', 'State or region')}
          <Select
            label="Country"
            required
            searchable
            placeholder="Type to search the list"
            nothingFoundMessage="No country of that name"
            data={countryList}
            value={unlisted ? null : country}
            onChange={(value) => partChanged('country', value ?? '')}
            allowDeselect={false}
            description={unlisted ? `Saved as “${unlisted}”: choose it from the list` : undefined}
            error={errors.country?.message}
          />
        </SimpleGrid>
        <div>
          <Text size="sm" fw={500}>
            Address line
          </Text>
          <Text data-testid="address-line" c={line ? undefined : 'dimmed'}>
            {line || 'Made from the fields above as you type them'}
          </Text>
        </div>
        <div>
          <Text size="sm" fw={500}>
            Position
          </Text>
          <Text size="xs" c="dimmed" mb={4}>
            {positionNote
              ? 'The position of the address picked before was cleared, since the address changed: enter it, pick the address again, or leave it blank.'
              : maps.state === 'ready'
                ? 'Filled in when you pick an address; you may also enter it yourself, or leave it blank.'
                : 'Optional: enter the latitude and longitude, or leave them blank.'}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Latitude"
              inputMode="decimal"
              {...form.register('latitude')}
              error={errors.latitude?.message}
            />
            <TextInput
              label="Longitude"
              inputMode="decimal"
              {...form.register('longitude')}
              error={errors.longitude?.message}
            />
          </SimpleGrid>
        </div>
        <TimeZoneSelect value={zone} suggested={suggested} onChange={pickZone} />
        {mode === 'create' && owners.length > 0 ? (
          <Controller
            control={form.control}
            name="ownerId"
            render={({ field }) => (
              <OwnerSelect
                owners={owners}
                description="Optional: the owner then sees this site"
                value={field.value}
                onChange={field.onChange}
              />
            )}
          />
        ) : null}
        <FormFooter
          error={save.error}
          errorTitle="The site was not saved"
          submitLabel={submitLabel}
          pending={save.pending}
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}
