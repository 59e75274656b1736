import { Select } from '@mantine/core';
import { memo, useMemo } from 'react';
import { formatTime, zoneOffset } from '../../components/format-date.ts';

interface ZoneOption {
  value: string;
  label: string;
}

const options = new Map<string, ZoneOption>();

/** A zone as an option: its name and its offset now, made once per zone. */
function option(zone: string): ZoneOption {
  let known = options.get(zone);
  if (!known) {
    known = { value: zone, label: `${zone.replaceAll('_', ' ')} (${zoneOffset(zone)})` };
    options.set(zone, known);
  }
  return known;
}

let everyZone: ZoneOption[] | undefined;

/** Every zone this browser knows (`Intl.supportedValuesOf`), with UTC, which some leave out. */
function browserZones(): ZoneOption[] {
  everyZone ??= [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])].sort().map(option);
  return everyZone;
}

/**
 * The site's time zone: a searchable list of every zone, the one suggested from the site's
 * position or country first. Its description says what the zone is for and the time there now.
 * Drawn again only when its value or suggestion changes: the field around it renders at every key
 * typed in the position.
 */
export const TimeZoneSelect = memo(function TimeZoneSelect({
  value,
  suggested,
  onChange,
  error,
}: {
  value: string;
  suggested: string | undefined;
  onChange: (zone: string) => void;
  error?: string | undefined;
}) {
  const data = useMemo(() => {
    const zones = browserZones();
    // The saved zone stays pickable even if this browser does not list it.
    const extra = value && !zones.some((zone) => zone.value === value) ? [option(value)] : [];
    return [
      ...(suggested ? [{ group: 'Suggested from the position or country', items: [option(suggested)] }] : []),
      { group: 'Every time zone', items: [...extra, ...zones].filter((zone) => zone.value !== suggested) },
    ];
  }, [value, suggested]);
  const shown = value || suggested;
  return (
    <Select
      label="Time zone"
      description={
        shown
          ? `The site's days start at midnight here: energy per day, "today", its charts and report. It is ${formatTime(Date.now(), { timeZone: shown })} there now.`
          : 'Enter the position or the country to get a suggestion, or pick the zone.'
      }
      placeholder="Search a time zone, e.g. Chicago"
      searchable
      nothingFoundMessage="No time zone of that name"
      data={data}
      value={shown ?? null}
      onChange={(zone) => {
        if (zone) onChange(zone);
      }}
      allowDeselect={false}
      maxDropdownHeight={280}
      // Searching narrows ~420 zones; drawing them all at every change would be slow.
      limit={60}
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
});
