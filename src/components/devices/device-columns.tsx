import type { Device } from '../../../contracts/devices.ts';
import { AnchorLink } from '../anchor-link.tsx';
import { formatDate } from '../format-date.ts';
import type { Column } from '../lists/data-list.tsx';
import { FirmwareUnknown } from './firmware-version.tsx';
import { OnlineBadge } from './online-badge.tsx';

export const DEVICE_SORT_OPTIONS = [
  { value: 'serial', label: 'Serial' },
  { value: 'model', label: 'Model' },
  { value: 'site', label: 'Site A–Z' },
  { value: '-installed', label: 'Newest installs' },
];

/**
 * Columns of a list of devices (the devices screen, a site's devices), its cards and its CSV;
 * model names come from the catalogue.
 * Its firmware version is what the device said when it last connected; empty in the CSV until then.
 * With `isOnline`, a device connected to the service now shows "Online" beside its serial.
 */
export function deviceColumns(
  modelName: (modelId: string) => string,
  isOnline?: (serial: string) => boolean,
): Column<Device>[] {
  return [
    {
      key: 'serial',
      header: 'Serial',
      text: (device) => device.serial,
      render: (device) => (
        <>
          <AnchorLink
            to="/device-details/$deviceid"
            params={{ deviceid: device.modelId }}
            search={{ serial: device.serial }}
          >
            {device.serial}
          </AnchorLink>
          <OnlineBadge online={isOnline?.(device.serial) ?? false} />
        </>
      ),
    },
    { key: 'model', header: 'Model', text: (device) => modelName(device.modelId) },
    { key: 'name', header: 'Name', text: (device) => device.name },
    {
      key: 'site',
      header: 'Site',
      text: (device) => device.siteName,
      render: (device) => (
        <AnchorLink to="/site-details/$siteid" params={{ siteid: String(device.siteId) }}>
          {device.siteName}
        </AnchorLink>
      ),
    },
    { key: 'installed', header: 'Installed', text: (device) => formatDate(device.installedAt) },
    {
      key: 'firmware',
      header: 'Firmware',
      text: (device) => device.firmwareVersion ?? '',
      render: (device) => device.firmwareVersion ?? <FirmwareUnknown />,
    },
  ];
}
