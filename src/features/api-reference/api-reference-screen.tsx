import { Anchor, SegmentedControl, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ScreenHeader } from '../../components/screen-header.tsx';
import type { Viewer } from './load-viewer.ts';

/** The two services' documents, generated from their routes (`GET …/openapi.json`). */
const DOCUMENTS = [
  { value: '/config/openapi.json', label: 'Configuration service' },
  { value: '/monitoring/openapi.json', label: 'Monitoring service' },
];

/**
 * `/api`: the OpenAPI documents of both services in Swagger UI, served from this origin. A person
 * pastes a personal key under "Authorize" (personalKey) and tries calls with "Try it out".
 */
export function ApiReferenceScreen({ viewer }: { viewer: Viewer }) {
  const [url, setUrl] = useState(DOCUMENTS[0]?.value ?? '');
  // The viewer draws into its own element, once per document shown (the key is the URL).
  const mount = (node: HTMLDivElement | null) => {
    if (node)
      viewer({
        domNode: node,
        url,
        tryItOutEnabled: true,
        validatorUrl: null,
        persistAuthorization: false,
        displayRequestDuration: true,
        docExpansion: 'list',
      });
  };
  return (
    <Stack gap="md">
      <ScreenHeader
        title="API reference"
        description={
          <Text>
            Every call of both services. Make a key under{' '}
            <Anchor component={Link} to="/api-keys">
              API keys
            </Anchor>
            , paste it under Authorize (personalKey), then open a call and choose Try it out.
          </Text>
        }
      />
      <SegmentedControl data={DOCUMENTS} value={url} onChange={setUrl} aria-label="Service" />
      <div key={url} ref={mount} className="api-reference" />
    </Stack>
  );
}
