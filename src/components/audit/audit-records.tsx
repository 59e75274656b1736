import { Card, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import type { AuditRecord } from '../../../contracts/installs.ts';
import { fetchAudit } from '../../api/commissioning-api.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { fromTask, useTask } from '../../app/use-task.ts';
import { formatDateTime } from '../format-date.ts';
import { LoadFailed } from '../page-state.tsx';

const site = (name: string | null, id: number | null) =>
  name ? name : `another site${id ? ` (${id})` : ''}`;

/** One change in words: "HX5K-24-000123 moved here from Okafor Residence". */
export function auditText(record: AuditRecord): string {
  const unit = record.serial ?? 'A device';
  switch (record.action) {
    case 'installed':
      return `${unit} put on ${site(record.siteName, record.siteId)}${record.newName ? ` as “${record.newName}”` : ''}`;
    case 'moved':
      return `${unit} moved from ${site(record.fromSiteName, record.fromSiteId)} to ${site(record.siteName, record.siteId)}`;
    case 'renamed':
      return `${unit} renamed from “${record.oldName ?? ''}” to “${record.newName ?? ''}”`;
    case 'replaced':
      return `${record.otherSerial ?? 'A device'} replaced by ${unit} at ${site(record.siteName, record.siteId)}`;
    case 'removed':
      return `${unit} taken off ${site(record.siteName, record.siteId)}`;
    case 'site_archived':
      return `Site ${site(record.siteName, record.siteId)} archived`;
    case 'site_restored':
      return `Site ${site(record.siteName, record.siteId)} restored`;
  }
}

/**
 * The recorded changes of a site or a device (who, when, what), newest first. Read when the page
 * shows it; the page's own refresh (after a change) reads it again through `version`.
 */
export function AuditRecords({
  of,
  version = 0,
}: {
  of: { siteId: number } | { serial: string };
  version?: number;
}) {
  const key = 'siteId' in of ? `site:${of.siteId}` : `device:${of.serial}`;
  // A new card, and so a new read, per subject and version.
  return <AuditCard key={`${key}:${version}`} of={of} id={key} />;
}

function AuditCard({ of, id: key }: { of: { siteId: number } | { serial: string }; id: string }) {
  const { configApi } = useRuntime();
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, for the card's subject
  const load = useMemo(() => fromTask(({ signal }) => fetchAudit(configApi, of, signal)), [configApi]);
  const state = useTask(load);
  return (
    <Card withBorder component="section" aria-labelledby={`changes-${key}`}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={`changes-${key}`}>
          Changes
        </Title>
        {state.status === 'active' ? (
          <Loader size="sm" role="status" aria-label="Loading the changes" />
        ) : null}
        {state.status === 'error' ? (
          <LoadFailed title="The changes could not be loaded" error={state.error} onRetry={state.retry} />
        ) : null}
        {state.output && state.output.length === 0 ? (
          <Text size="sm" c="gray.7">
            No devices were put on, moved, replaced or taken off here yet.
          </Text>
        ) : null}
        {state.output && state.output.length > 0 ? (
          <List size="sm" spacing={6} listStyleType="none" aria-label="Changes, newest first">
            {state.output.map((record) => (
              <List.Item key={record.id}>
                <Text size="sm" span fw={600}>
                  {auditText(record)}
                </Text>
                <Text size="xs" c="gray.7">
                  {formatDateTime(record.at)} · {record.userEmail}
                </Text>
              </List.Item>
            ))}
          </List>
        ) : null}
      </Stack>
    </Card>
  );
}
