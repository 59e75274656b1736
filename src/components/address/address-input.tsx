import { TextInput } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { forwardRef, useRef } from 'react';
import { type AddressRecord, type PlaceLike, toAddressRecord } from './address-record.ts';
import { type AutocompleteOptions, loadAutocomplete } from './maps-loader.ts';

export interface AddressInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** A place was picked: the §3 record, its latitude/longitude pair and the place itself. */
  onPlace?: (
    record: AddressRecord,
    position: { latitude: number; longitude: number },
    place: PlaceLike,
  ) => void;
  mapsApiKey: string | null;
  options?: AutocompleteOptions;
  required?: boolean;
  error?: string;
  description?: string;
  name?: string;
}

/**
 * The address control: a text field that becomes a Places autocomplete the first time it is
 * used. When the maps script cannot load, it stays a plain field and the address is typed by
 * hand; nothing is shown to the person as an error (specification §8).
 */
export const AddressInput = forwardRef<HTMLInputElement, AddressInputProps>(function AddressInput(
  { label, value, onChange, onBlur, onPlace, mapsApiKey, options, required, error, description, name },
  ref,
) {
  const input = useRef<HTMLInputElement | null>(null);
  const attached = useRef(false);
  const attach = async () => {
    if (attached.current) return;
    attached.current = true;
    const factory = await loadAutocomplete(mapsApiKey);
    const element = input.current;
    if (!factory || !element) return;
    const autocomplete = factory(element, options ?? {});
    autocomplete.addListener('place_changed', () => {
      const place = autocomplete.getPlace();
      const record = toAddressRecord(place);
      onChange(record.displayAddress || element.value);
      onPlace?.(record, record.geoLocation, place);
    });
  };
  return (
    <TextInput
      ref={(element) => {
        input.current = element;
        if (typeof ref === 'function') ref(element);
        else if (ref) ref.current = element;
      }}
      name={name}
      label={label}
      description={description}
      required={required}
      error={error}
      value={value}
      autoComplete="off"
      leftSection={<IconMapPin size={16} aria-hidden />}
      onFocus={() => void attach()}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={onBlur}
    />
  );
});
