import { Alert, Button, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useSave } from '../../app/use-save.ts';

interface ExportCsvButtonProps {
  /** Collects the rows (every page of the current filter) and saves them as CSV. */
  onExport: () => Promise<void>;
  /** The accessible name when a page has several lists; it starts with "Export CSV" (the visible text). */
  label?: string;
}

/**
 * "Export CSV": busy while the rows are collected, and a failed export says why beside the
 * button, leaving the list as it was.
 */
export function ExportCsvButton({ onExport, label }: ExportCsvButtonProps) {
  // An export changes nothing shown: the page is not loaded again.
  const save = useSave({ refreshes: false });
  return (
    <Stack gap="xs" align="flex-start">
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        loading={save.pending}
        aria-label={label}
        onClick={() => save.save(() => onExport())}
      >
        Export CSV
      </Button>
      {save.error ? (
        <Alert color="red" role="alert" title="The export failed">
          {save.error}
        </Alert>
      ) : null}
    </Stack>
  );
}
