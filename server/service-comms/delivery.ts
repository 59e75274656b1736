/** How delivering a frame to a device ended: its answer, or the error code the caller gets. */
export type Delivery = { ok: true; data: number[] } | { ok: false; code: DeliveryFailure };

/** `device_offline` (409): not connected, or gone mid-command; `device_timeout` (504): no answer in time. */
export type DeliveryFailure = 'device_offline' | 'device_timeout';

export const offline: Delivery = { ok: false, code: 'device_offline' };
export const timedOut: Delivery = { ok: false, code: 'device_timeout' };
