import { Group, Select, Stack } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { toCsv } from '../../../contracts/csv.ts';
import { ALARM_SEVERITIES } from '../../../contracts/monitoring-terms.ts';
import { fetchAlarmsPage } from '../../api/monitoring-api.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { AcknowledgeDialog, useAlarmAcknowledge } from '../../components/alarms/acknowledge-dialog.tsx';
import { SEVERITY_LABEL } from '../../components/alarms/alarm-badges.tsx';
import { alarmColumns, alarmCsvColumns } from '../../components/alarms/alarm-columns.tsx';
import { FleetLiveStatus, useFleetLive } from '../../components/fleet-live.tsx';
import { collectAllPages, downloadCsv } from '../../components/lists/csv.ts';
import { DataList } from '../../components/lists/data-list.tsx';
import { ExportCsvButton } from '../../components/lists/export-csv-button.tsx';
import { Pager } from '../../components/lists/list-toolbar.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import type { AlarmsSearch } from './alarms-search.ts';

const route = getRouteApi('/_shell/alarms');

const ALL = '';
const STATE_OPTIONS = [
  { value: ALL, label: 'Any state' },
  { value: 'open', label: 'Open (active or acknowledged)' },
  { value: 'active', label: 'Active' },
  { value: 'acknowledged', label: 'Acknowledged' },
  { value: 'cleared', label: 'Cleared' },
];
const SEVERITY_OPTIONS = [
  { value: ALL, label: 'Any severity' },
  ...[...ALARM_SEVERITIES]
    .reverse()
    .map((severity) => ({ value: severity, label: SEVERITY_LABEL[severity] })),
];

/** Which filters a list is narrowed by, in words, for the empty state. */
function filtered(search: AlarmsSearch): boolean {
  return Boolean(search.state || search.siteId || search.severity);
}

/**
 * Alarms: every alarm at the sites the person sees, newest raised first, filtered by state, site
 * and severity (kept in the URL); an active one is acknowledged with a note; CSV of every page of
 * the current filter.
 */
export function AlarmsScreen() {
  const { monitoringApi } = useRuntime();
  const { page, sites } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const acknowledge = useAlarmAcknowledge();
  // The list follows the alarms as they are raised, acknowledged and cleared.
  const live = useFleetLive();
  const go = (next: AlarmsSearch) => void navigate({ search: next });
  const filter = (patch: Partial<AlarmsSearch>) => {
    const next: AlarmsSearch = { ...search, ...patch, page: 0 };
    for (const key of ['state', 'siteId', 'severity'] as const) if (!next[key]) delete next[key];
    go(next);
  };
  const columns = alarmColumns({
    onAcknowledge: (alarm) => acknowledge.send({ type: 'ack.open', alarmId: alarm.id }),
  });
  const exportCsv = async () => {
    const all = await collectAllPages((n, size) => fetchAlarmsPage(monitoringApi, search, n, size));
    downloadCsv('alarms.csv', toCsv(all, alarmCsvColumns()));
  };
  const siteOptions = [
    { value: ALL, label: 'Every site' },
    ...sites.map((site) => ({ value: String(site.id), label: site.name })),
  ];
  if (search.siteId && !sites.some((site) => site.id === search.siteId))
    siteOptions.push({ value: String(search.siteId), label: `Site ${search.siteId}` });
  return (
    <Stack gap="md">
      <ScreenHeader title="Alarms" description="Newest raised first, at every site you see." />
      <FleetLiveStatus actor={live} />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label="State"
          data={STATE_OPTIONS}
          value={search.state ?? ALL}
          allowDeselect={false}
          onChange={(value) => filter({ state: (value || undefined) as AlarmsSearch['state'] })}
          w={{ base: '100%', xs: 240 }}
        />
        <Select
          label="Site"
          data={siteOptions}
          value={search.siteId ? String(search.siteId) : ALL}
          allowDeselect={false}
          searchable
          onChange={(value) => filter({ siteId: value ? Number(value) : undefined })}
          w={{ base: '100%', xs: 240 }}
        />
        <Select
          label="Severity"
          data={SEVERITY_OPTIONS}
          value={search.severity ?? ALL}
          allowDeselect={false}
          onChange={(value) => filter({ severity: (value || undefined) as AlarmsSearch['severity'] })}
          w={{ base: '100%', xs: 180 }}
        />
        <ExportCsvButton onExport={exportCsv} />
      </Group>
      {page.items.length === 0 ? (
        filtered(search) ? (
          <EmptyState title="No alarm matches these filters">
            Choose another state, site or severity.
          </EmptyState>
        ) : (
          <EmptyState title="No alarms">Alarms of devices at your sites appear here.</EmptyState>
        )
      ) : (
        <DataList label="Alarms" columns={columns} rows={page.items} rowKey={(alarm) => alarm.id} />
      )}
      <Pager
        page={page.page}
        pageSize={page.pageSize}
        total={page.total}
        onPage={(n) => go({ ...search, page: n })}
      />
      <AcknowledgeDialog actor={acknowledge} alarms={page.items} />
    </Stack>
  );
}
