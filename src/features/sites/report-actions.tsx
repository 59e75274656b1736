import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconFileDownload, IconMailForward } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { fetchReport, sendReport } from '../../api/commissioning-api.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';

/** Hand a downloaded file to the browser as a download. */
function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The commissioning report of a site: "Commissioning report" downloads the PDF, "Send to owner"
 * mails it to the site's owner (for those who install on the site, when it has an owner).
 */
export function ReportActions({
  siteId,
  siteName,
  canSend,
}: {
  siteId: number;
  siteName: string;
  canSend: boolean;
}) {
  const { configApi } = useRuntime();
  const download = async (signal: AbortSignal) => {
    const pdf = await fetchReport(configApi, siteId, signal);
    const slug = siteName.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
    saveFile(pdf, `commissioning-report-${slug}.pdf`);
    return 'The report was downloaded.';
  };
  return (
    <Group gap="xs" align="flex-start">
      <ReportButton
        run={download}
        label="Commissioning report"
        icon={<IconFileDownload size={16} aria-hidden />}
      />
      {canSend ? (
        <ReportButton
          run={(signal) => sendReport(configApi, siteId, signal)}
          label="Send to owner"
          icon={<IconMailForward size={16} aria-hidden />}
        />
      ) : null}
    </Group>
  );
}

/**
 * A button that runs its work on every press (a press while it runs sends nothing), busy while it
 * runs, with the outcome of the last press beside it.
 */
function ReportButton({
  run,
  label,
  icon,
}: {
  run: (signal: AbortSignal) => Promise<string>;
  label: string;
  icon: ReactNode;
}) {
  // Neither the download nor the mail changes what the page shows: it is not loaded again.
  const save = useSave<string>({ refreshes: false });
  return (
    <Stack gap={4}>
      <Button variant="light" leftSection={icon} loading={save.pending} onClick={() => save.save(run)}>
        {label}
      </Button>
      {save.pending ? (
        <Alert color="gray" role="status" p="xs">
          {label}: working…
        </Alert>
      ) : null}
      {save.error ? (
        <Alert color="red" role="alert" p="xs" title={`${label} did not work`}>
          {save.error}
        </Alert>
      ) : null}
      {save.saved ? (
        <Alert color="teal" role="status" p="xs">
          {save.saved.output}
        </Alert>
      ) : null}
    </Stack>
  );
}
