import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconFileDownload, IconMailForward } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { errorMessage } from '../../../contracts/error-message.ts';
import { fetchReport, sendReport } from '../../api/commissioning-api.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { fromTask, type Task, useTask } from '../../app/use-task.ts';

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
  const download = useMemo(
    () =>
      fromTask(async () => {
        const pdf = await fetchReport(configApi, siteId);
        const slug = siteName.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
        saveFile(pdf, `commissioning-report-${slug}.pdf`);
        return 'The report was downloaded.';
      }),
    [configApi, siteId, siteName],
  );
  const send = useMemo(() => fromTask(() => sendReport(configApi, siteId)), [configApi, siteId]);
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Run
          actor={download}
          label="Commissioning report"
          icon={<IconFileDownload size={16} aria-hidden />}
        />
        {canSend ? (
          <Run actor={send} label="Send to owner" icon={<IconMailForward size={16} aria-hidden />} />
        ) : null}
      </Group>
    </Stack>
  );
}

/** A button that runs its actor again on every press (not while it runs), with its outcome. */
function Run({ actor, label, icon }: { actor: Task<string>; label: string; icon: ReactNode }) {
  const [runs, setRuns] = useState(0);
  const button = (working: boolean) => (
    <Button variant="light" leftSection={icon} loading={working} onClick={() => setRuns(runs + 1)}>
      {label}
    </Button>
  );
  return (
    <Stack gap={4}>
      {runs > 0 ? <Outcome key={runs} actor={actor} label={label} button={button} /> : button(false)}
    </Stack>
  );
}

function Outcome({
  actor,
  label,
  button,
}: {
  actor: Task<string>;
  label: string;
  button: (working: boolean) => ReactNode;
}) {
  const state = useTask(actor);
  return (
    <>
      {button(state.status === 'active')}
      {state.status === 'active' ? (
        <Alert color="gray" role="status" p="xs">
          {label}: working…
        </Alert>
      ) : state.status === 'error' ? (
        <Alert color="red" role="alert" p="xs" title={`${label} did not work`}>
          {errorMessage(state.error)}
        </Alert>
      ) : (
        <Alert color="teal" role="status" p="xs">
          {state.output}
        </Alert>
      )}
    </>
  );
}
