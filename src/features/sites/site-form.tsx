import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { AddressInput } from '../../components/address/address-input.tsx';
import {
  type AddressRecord,
  type PlaceLike,
  postalCodeText,
} from '../../components/address/address-record.ts';
import { type SiteFormValues, siteFormSchema } from './site-form-schema.ts';

interface SiteFormProps {
  /** `create` asks for the name and an owner too; `address` edits the address only. */
  mode: 'create' | 'address';
  defaultValues: SiteFormValues;
  owners?: User[];
  submitLabel: string;
  /**
   * Sends the values as the screen's save (`useSave`): its failure is shown above the button and
   * the form keeps what was typed.
   */
  onSave: (values: SiteFormValues) => void;
  /** The save under way and its failure, from the screen's `useSave`. */
  saving: boolean;
  saveError: string | null;
  onCancel: () => void;
}

/**
 * The site form: the address control fills the address parts and the position when a place is
 * picked; without maps the person types them (coordinates optional).
 */
export function SiteForm({
  mode,
  defaultValues,
  owners = [],
  submitLabel,
  onSave,
  saving,
  saveError,
  onCancel,
}: SiteFormProps) {
  const { config } = useRuntime();
  const form = useForm<SiteFormValues>({ resolver: zodResolver(siteFormSchema), defaultValues });
  const { errors } = form.formState;
  const text = (name: keyof SiteFormValues, label: string) => (
    <TextInput label={label} {...form.register(name)} error={errors[name]?.message} />
  );
  const fillFromPlace = (
    record: AddressRecord,
    position: { latitude: number; longitude: number },
    place: PlaceLike,
  ) => {
    const set = (name: keyof SiteFormValues, value: string) =>
      form.setValue(name, value, { shouldDirty: true, shouldValidate: true });
    set('streetNumber', record.streetNumber);
    set('streetName', record.streetName);
    set('postalCode', postalCodeText(place));
    set('locality', record.locality.long);
    set('state', record.state.short || record.state.long);
    set('country', record.country.short || record.country.long);
    set('placeId', record.placeID);
    const hasPosition = position.latitude !== -1 || position.longitude !== -1;
    set('latitude', hasPosition ? String(position.latitude) : '');
    set('longitude', hasPosition ? String(position.longitude) : '');
  };
  const submit = form.handleSubmit(onSave);
  return (
    <form onSubmit={submit} noValidate aria-label={mode === 'create' ? 'New site' : 'Site address'}>
      <Stack gap="md" maw={760}>
        {mode === 'create' ? (
          <TextInput label="Site name" required {...form.register('name')} error={errors.name?.message} />
        ) : null}
        <Controller
          control={form.control}
          name="displayAddress"
          render={({ field }) => (
            <AddressInput
              label="Address"
              description="Start typing and pick the address, or type it in full"
              required
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              onPlace={fillFromPlace}
              mapsApiKey={config.mapsApiKey}
              options={{ types: ['address'] }}
              error={errors.displayAddress?.message}
            />
          )}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('streetNumber', 'Street number')}
          {text('streetName', 'Street')}
          {text('postalCode', 'Postal code')}
          {text('locality', 'Town or city')}
          {text('state', 'State or region')}
          {text('country', 'Country')}
        </SimpleGrid>
        <div>
          <Text size="sm" fw={500}>
            Position
          </Text>
          <Text size="xs" c="dimmed" mb={4}>
            Filled in when you pick an address; you may also enter it yourself, or leave it blank.
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
        {mode === 'create' && owners.length > 0 ? (
          <Controller
            control={form.control}
            name="ownerId"
            render={({ field }) => (
              <Select
                label="Owner"
                description="Optional: the owner then sees this site"
                placeholder="No owner"
                clearable
                searchable
                data={owners.map((o) => ({ value: String(o.id), label: `${o.name} (${o.main_email})` }))}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
              />
            )}
          />
        ) : null}
        {saveError ? (
          <Alert color="red" role="alert" title="The site was not saved">
            {saveError}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
