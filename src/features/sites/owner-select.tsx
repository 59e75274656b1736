import { type ComboboxItem, type OptionsFilter, Select, Stack, Text } from '@mantine/core';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';
import type { User } from '../../../contracts/users.ts';

/** Finds an owner by name or e-mail, whichever the person types. */
const byNameOrEmail =
  (owners: User[]): OptionsFilter =>
  ({ options, search }) => {
    const text = search.trim().toLowerCase();
    const emails = new Map(owners.map((owner) => [String(owner.id), owner.main_email.toLowerCase()]));
    return (options as ComboboxItem[]).filter(
      (option) => option.label.toLowerCase().includes(text) || emails.get(option.value)?.includes(text),
    );
  };

/**
 * The site's owner: a picker that shows each owner's name with the e-mail under it, and the
 * chosen owner's name in the field with the e-mail below, so neither is cut off on a phone.
 */
export function OwnerSelect({
  owners,
  value,
  onChange,
  description,
}: {
  owners: User[];
  value: string;
  onChange: (value: string) => void;
  description: string;
}) {
  const chosen = owners.find((owner) => String(owner.id) === value);
  return (
    <Select
      label="Owner"
      description={chosen ? `${description}. ${chosen.name}: ${chosen.main_email}` : description}
      placeholder="No owner"
      clearable
      searchable
      data={owners.map((owner) => ({ value: String(owner.id), label: owner.name }))}
      filter={byNameOrEmail(owners)}
      renderOption={({ option }) => (
        <Stack gap={0}>
          <Text size="sm">{option.label}</Text>
          <Text size="xs" c="dimmed">
            {owners.find((owner) => String(owner.id) === option.value)?.main_email}
          </Text>
        </Stack>
      )}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={240}
    />
  );
}

/**
 * The owner picker as a field of a site form whose values hold the chosen owner's id as text in
 * `ownerId` ('' for none).
 * @example <OwnerField control={form.control} owners={owners} description="The owner sees this site once attached" />
 */
export function OwnerField<T extends FieldValues & { ownerId: string }>({
  control,
  owners,
  description,
}: {
  control: Control<T>;
  owners: User[];
  description: string;
}) {
  const { field } = useController({ control, name: 'ownerId' as FieldPath<T> });
  return (
    <OwnerSelect owners={owners} description={description} value={field.value} onChange={field.onChange} />
  );
}
