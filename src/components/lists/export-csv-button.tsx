import { Alert, Button, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../contracts/error-message.ts';

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
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setExporting(true);
    setError(null);
    try {
      await onExport();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setExporting(false);
    }
  };
  return (
    <Stack gap="xs" align="flex-start">
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        loading={exporting}
        aria-label={label}
        onClick={() => void run()}
      >
        Export CSV
      </Button>
      {error ? (
        <Alert color="red" role="alert" title="The export failed">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
