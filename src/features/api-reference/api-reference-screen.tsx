import { Anchor, SegmentedControl, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { ScreenHeader } from '../../components/screen-header.tsx';
import type { Viewer } from './load-viewer.ts';

/** The two services' documents, generated from their routes (`GET …/openapi.json`). */
const DOCUMENTS = [
  { value: '/config/openapi.json', label: 'Configuration' },
  { value: '/monitoring/openapi.json', label: 'Monitoring' },
];

/**
 * `/api`: the OpenAPI documents of both services in Swagger UI, served from this origin. A person
 * pastes a personal key under "Authorize" (personalKey) and tries calls with "Try it out". The key
 * stays in this page's memory only (`persistAuthorization: false`).
 */
export function ApiReferenceScreen({ viewer }: { viewer: Viewer }) {
  const [url, setUrl] = useState(DOCUMENTS[0]?.value ?? '');
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
      <SegmentedControl data={DOCUMENTS} value={url} onChange={setUrl} aria-label="Service" fullWidth />
      <ViewerPane viewer={viewer} url={url} />
    </Stack>
  );
}

/** The viewer, drawn into an element of its own for each document shown (it has no way to unmount). */
function ViewerPane({ viewer, url }: { viewer: Viewer; url: string }) {
  const node = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const host = document.createElement('div');
    node.current?.append(host);
    viewer({
      domNode: host,
      url,
      validatorUrl: null,
      persistAuthorization: false,
      displayRequestDuration: true,
      docExpansion: 'list',
    });
    return () => host.remove();
  }, [viewer, url]);
  return <div ref={node} className="api-reference" />;
}
