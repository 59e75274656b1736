import { TextInput } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { forwardRef, useEffect, useRef, useState } from 'react';
import { type AddressRecord, type PlaceLike, toAddressRecord } from './address-record.ts';
import { type AutocompleteFactory, type AutocompleteOptions, loadAutocomplete } from './maps-loader.ts';

/**
 * Whether the maps suggestions can be offered: `loading` while the maps script loads (once, when
 * a form with the address control opens), then `ready` with the factory, or `none` when there is
 * no key or the script failed (the console says so; the person is told nothing, specification §8).
 */
export function useMapsSuggestions(
  apiKey: string | null,
): { state: 'loading' | 'none' } | { state: 'ready'; factory: AutocompleteFactory } {
  const [result, setResult] = useState<
    { state: 'loading' | 'none' } | { state: 'ready'; factory: AutocompleteFactory }
  >({ state: 'loading' });
  useEffect(() => {
    let live = true;
    void loadAutocomplete(apiKey).then((factory) => {
      if (live) setResult(factory ? { state: 'ready', factory } : { state: 'none' });
    });
    return () => {
      live = false;
    };
  }, [apiKey]);
  return result;
}

export interface AddressInputProps {
  label: string;
  /** The maps autocomplete (from `useMapsSuggestions`): this control exists only when it does. */
  autocomplete: AutocompleteFactory;
  /** A place was picked: the §3 record, its latitude/longitude pair and the place itself. */
  onPlace: (
    record: AddressRecord,
    position: { latitude: number; longitude: number },
    place: PlaceLike,
  ) => void;
  options?: AutocompleteOptions;
  description?: string;
}

/**
 * The address control with maps suggestions: type, then pick a place, which fills the address
 * parts and the position. What is typed here is a search, not the saved address: the site's
 * address line is made from the parts. Enter picks a suggestion and never submits the form, so
 * a half-filled address is never saved by it.
 */
export const AddressInput = forwardRef<HTMLInputElement, AddressInputProps>(function AddressInput(
  { label, autocomplete, onPlace, options, description },
  ref,
) {
  const input = useRef<HTMLInputElement | null>(null);
  const [query, setQuery] = useState('');
  const onPlaceRef = useRef(onPlace);
  onPlaceRef.current = onPlace;
  useEffect(() => {
    const element = input.current;
    if (!element) return;
    const control = autocomplete(element, options ?? {});
    control.addListener('place_changed', () => {
      const place = control.getPlace();
      const record = toAddressRecord(place);
      // The pick now lives in the address fields and line: the search starts empty again, so it
      // never shows an address the fields have since moved away from.
      setQuery('');
      onPlaceRef.current(record, record.geoLocation, place);
    });
  }, [autocomplete, options]);
  return (
    <TextInput
      ref={(element) => {
        input.current = element;
        if (typeof ref === 'function') ref(element);
        else if (ref) ref.current = element;
      }}
      label={label}
      description={description}
      value={query}
      autoComplete="off"
      leftSection={<IconMapPin size={16} aria-hidden />}
      onChange={(event) => setQuery(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.preventDefault();
      }}
    />
  );
});
