import { zodResolver } from '@hookform/resolvers/zod';
import { SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import type { Save } from '../../app/use-save.ts';
import { AddressInput, useMapsSuggestions } from '../../components/address/address-input.tsx';
import type { AddressParts } from '../../components/address/address-line.ts';
import type { AutocompleteOptions } from '../../components/address/maps-loader.ts';
import { fieldProps } from '../../components/field-props.ts';
import { FormFooter } from '../../components/form-footer.tsx';
import { useUnsavedWork } from '../../components/leave-guard.tsx';
import { OwnerField } from './owner-select.tsx';
import { type AddressEvent, addressShown, addressStep, openAddress, positionNote } from './site-address.ts';
import { AddressLineText, CountryField, SiteZoneField } from './site-address-fields.tsx';
import { type SiteFormValues, siteFormSchema } from './site-form-schema.ts';

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
  // The address rule (site-address.ts) keeps its state here; the form holds the fields. Nothing
  // here watches a field: the pieces that show what the rule makes of them watch their own
  // (site-address-fields.tsx), so a key typed does not draw the whole form again.
  const [address, setAddress] = useState(() => openAddress(defaultValues));
  const latest = useRef(address);

  const set = useCallback(
    (name: keyof SiteFormValues, value: string) =>
      form.setValue(name, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted }),
    [form],
  );
  /** Applies one step of the rule: the fields it sets, and its next state. */
  const step = useCallback(
    (event: AddressEvent) => {
      const next = addressStep(latest.current, event);
      const changed = next.state !== latest.current;
      latest.current = next.state;
      for (const [name, value] of Object.entries(next.fill)) set(name as keyof SiteFormValues, value);
      if (changed) setAddress(next.state);
    },
    [set],
  );
  const partChanged = (name: keyof AddressParts, value: string) => {
    set(name, value);
    step({ type: 'part.edited', values: form.getValues() });
  };
  // Stable, so the long list of zones is not drawn again on every key typed elsewhere.
  const pickZone = useCallback((picked: string) => step({ type: 'zone.picked', zone: picked }), [step]);
  const part = (name: keyof AddressParts, label: string, required = false) => (
    <TextInput
      label={label}
      required={required}
      {...fieldProps(form, name)}
      onChange={(event) => partChanged(name, event.currentTarget.value)}
    />
  );
  const submit = form.handleSubmit((typed) => {
    const { line, zone } = addressShown(latest.current, typed, defaultValues);
    onSave({ ...typed, displayAddress: line, timeZone: zone });
  });
  return (
    <form onSubmit={submit} noValidate aria-label={mode === 'create' ? 'New site' : 'Site address'}>
      <Stack gap="md" maw={760}>
        {mode === 'create' ? <TextInput label="Site name" required {...fieldProps(form, 'name')} /> : null}
        {maps.state === 'ready' ? (
          <AddressInput
            label="Address search"
            description="Start typing and pick the address from the suggestions: the fields below fill in, and you can correct them."
            autocomplete={maps.factory}
            onPlace={(record, position, place) => step({ type: 'place.picked', record, position, place })}
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
          <CountryField
            control={form.control}
            error={errors.country?.message}
            onChange={(code) => partChanged('country', code)}
          />
        </SimpleGrid>
        <AddressLineText control={form.control} known={address.known} />
        <div>
          <Text size="sm" fw={500}>
            Position
          </Text>
          <Text size="xs" c="dimmed" mb={4}>
            {positionNote(address, maps.state === 'ready')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Latitude" inputMode="decimal" {...fieldProps(form, 'latitude')} />
            <TextInput label="Longitude" inputMode="decimal" {...fieldProps(form, 'longitude')} />
          </SimpleGrid>
        </div>
        <SiteZoneField
          control={form.control}
          saved={defaultValues}
          picked={address.zonePicked}
          onPick={pickZone}
        />
        {mode === 'create' && owners.length > 0 ? (
          <OwnerField
            control={form.control}
            owners={owners}
            description="Optional: the owner then sees this site"
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
