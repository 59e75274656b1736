import type { DeviceConfig } from '../config-schema.ts';
import { FACTORY_GROUP } from '../excluded-groups.ts';
import { addIdentityDerived, addIdentityGroups, addIdentityItems, FACTORY_NOTE } from './common-sections.ts';
import { field, ProductBuilder } from './product-builder.ts';

/** Helios HX-5000 Hybrid Inverter: 5 kW, 48 V battery, single-phase grid. */
export function hybrid5k(): DeviceConfig {
  const b = new ProductBuilder();
  addIdentityItems(b, { firmware: [2, 4, 1], name: 'HX5000', password: '0000' });
  b.live('pvVoltage', 'u16le', 385.2, 0.1, 'V')
    .live('pvCurrent', 'u16le', 8.12, 0.01, 'A')
    .live('pvPower', 'u32le', 3128, 1, 'W')
    .live('batteryVoltage', 'u16be', 52.64, 0.01, 'V')
    .live('batteryCurrent', 's16le', -12.5, 0.1, 'A')
    .live('batterySoc', 'u8', 76, 1, '%')
    .live('gridVoltage', 'u16le', 231.4, 0.1, 'V')
    .live('gridFrequency', 'u16be', 50.01, 0.01, 'Hz')
    .live('gridPower', 's32be', -1250, 1, 'W')
    .live('loadPower', 'u32be', 1210, 1, 'W')
    .live('inverterTemp', 's16le', 41.5, 0.1, '°C')
    .live('ambientTemp', 's8', 24, 1, '°C')
    .live('energyToday', 'u32le', 12.4, 0.1, 'kWh')
    .live('energyTotal', 'u32be', 18342.7, 0.1, 'kWh')
    .live('statusFlags', 'u16le', 0b1001)
    .live('operatingMode', 'u8', 2)
    .live('faultCode', 'u8', 0)
    .raw('workMode', 'u8', 0)
    .raw('maxChargeCurrent', 'u16le', 80, { multiplier: 0.1, unit: 'A' })
    .raw('maxDischargeCurrent', 'u16le', 100, { multiplier: 0.1, unit: 'A' })
    .raw('batteryCutoffVoltage', 'u16be', 46, { multiplier: 0.01, unit: 'V' })
    .raw('batteryFloatVoltage', 'u16be', 54, { multiplier: 0.01, unit: 'V' })
    .raw('gridVoltageHigh', 'u16le', 253, { multiplier: 0.1, unit: 'V' })
    .raw('gridVoltageLow', 'u16le', 195.5, { multiplier: 0.1, unit: 'V' })
    .raw('gridFreqHigh', 'u16be', 51.5, { multiplier: 0.01, unit: 'Hz' })
    .raw('gridFreqLow', 'u16be', 47.5, { multiplier: 0.01, unit: 'Hz' })
    .raw('reconnectDelay', 'u16le', 60, { unit: 's' })
    .raw('exportLimit', 's32le', 5000, { unit: 'W' })
    .raw('chargeStart', 'u32le', 7200, { unit: 's' })
    .raw('dischargeStart', 'u16be', 1020, { unit: 'min' })
    .raw('equalizeDuration', 'u16le', 120, { unit: 'min' })
    .raw('modbusAddress', 'u8', 1)
    .raw('lcdBacklight', 'u8', 60, { unit: 's' })
    .raw('calGridVoltage', 's16le', 1.25, { multiplier: 0.001 })
    .raw('calPvVoltage', 's16be', -0.8, { multiplier: 0.001 })
    .live('readingTime', 'u32le', 0);
  addIdentityDerived(b);
  b.other(
    'batteryPower',
    [{ type: 'cal', op: 'mul', left: { ref: 'batteryVoltage' }, right: { ref: 'batteryCurrent' }, round: 0 }],
    'W',
  )
    .other(
      'selfSupply',
      [
        { type: 'cal', op: 'div', left: { ref: 'pvPower' }, right: { ref: 'loadPower' } },
        { type: 'cal', op: 'mul', left: { ref: '$' }, right: { num: 100 }, round: 0 },
      ],
      '%',
    )
    .other('gridDirection', [
      { type: 'com', ref: 'gridPower', op: 'lt', to: 0, outcomes: ['Exporting', 'Importing'] },
    ])
    .other('batteryLow', [{ type: 'com', ref: 'batterySoc', op: 'le', to: 20 }])
    .other('gridConnected', [
      { type: 'bsv', ref: 'statusFlags', bit: 0, outcomes: ['Connected', 'Disconnected'] },
    ])
    .other('fanRunning', [{ type: 'bsv', ref: 'statusFlags', bit: 3, outcomes: ['On', 'Off'] }])
    .other('workModeText', [
      { type: 'vfa', ref: 'workMode', list: ['Self-use', 'Feed-in first', 'Backup', 'Off-grid'] },
    ])
    .other('operatingModeText', [
      { type: 'vfa', ref: 'operatingMode', list: ['Standby', 'Self-test', 'On-grid', 'Off-grid', 'Fault'] },
    ])
    .other('faultText', [
      {
        type: 'vfa',
        ref: 'faultCode',
        list: ['No fault', 'Grid over-voltage', 'Grid under-voltage', 'Over-temperature', 'Isolation fault'],
      },
    ])
    .other('chargeStartTime', [{ type: 'tfm', ref: 'chargeStart' }])
    .other('dischargeStartTime', [{ type: 'itd', ref: 'dischargeStart' }])
    .other('equalizeDurationText', [{ type: 'its', ref: 'equalizeDuration' }]);
  addIdentityGroups(b);
  b.monitoring({
    timeItem: 'readingTime',
    derived: ['batteryPower'],
    counters: ['energyTotal'],
    roles: {
      production: 'pvPower',
      consumption: 'loadPower',
      grid: 'gridPower',
      battery: 'batteryPower',
      soc: 'batterySoc',
      producedEnergy: 'energyTotal',
    },
    status: [
      {
        item: 'faultCode',
        codes: [
          { value: 1, text: 'Grid over-voltage', severity: 'warning' },
          { value: 2, text: 'Grid under-voltage', severity: 'warning' },
          { value: 3, text: 'Inverter over-temperature', severity: 'critical' },
          { value: 4, text: 'Isolation fault', severity: 'critical' },
        ],
      },
      { item: 'operatingMode', codes: [{ value: 4, text: 'Inverter in fault mode', severity: 'critical' }] },
      { item: 'statusFlags' },
    ],
    thresholds: [
      {
        item: 'batterySoc',
        below: 10,
        clearAt: 12,
        text: 'Battery state of charge below 10 %',
        severity: 'warning',
      },
      {
        item: 'inverterTemp',
        above: 75,
        clearAt: 70,
        text: 'Inverter temperature above 75 °C',
        severity: 'critical',
      },
    ],
  });
  b.group('Battery', [
    field('maxChargeCurrent', { label: 'Max charge current', required: true, min: 0, max: 100 }),
    field('maxDischargeCurrent', { label: 'Max discharge current', required: true, min: 0, max: 100 }),
    field('batteryCutoffVoltage', { label: 'Cut-off voltage', required: true, min: 40, max: 52 }),
    field('batteryFloatVoltage', { label: 'Float voltage', required: true, min: 50, max: 58 }),
  ])
    .group('Grid', [
      field('gridVoltageHigh', { label: 'Grid over-voltage trip', required: true, min: 230, max: 270 }),
      field('gridVoltageLow', { label: 'Grid under-voltage trip', required: true, min: 150, max: 230 }),
      field('gridFreqHigh', { label: 'Grid over-frequency trip', required: true, min: 50, max: 55 }),
      field('gridFreqLow', { label: 'Grid under-frequency trip', required: true, min: 45, max: 50 }),
      field('reconnectDelay', { label: 'Reconnect delay', min: 10, max: 600 }),
      field('exportLimit', { label: 'Export limit', min: -5000, max: 5000 }),
    ])
    .group('Schedule', [
      field('workMode', { label: 'Work mode', required: true, min: 0, max: 3, display: 'workModeText' }),
      field('chargeStart', {
        label: 'Grid charge starts at',
        min: 0,
        max: 86399,
        display: 'chargeStartTime',
      }),
      field('dischargeStart', {
        label: 'Discharge starts at',
        min: 0,
        max: 1439,
        display: 'dischargeStartTime',
      }),
      field('equalizeDuration', {
        label: 'Equalisation duration',
        min: 0,
        max: 600,
        display: 'equalizeDurationText',
      }),
    ])
    .group('Communication', [
      field('modbusAddress', { label: 'Modbus address', required: true, min: 1, max: 247 }),
      {
        dataId: 'lcdBacklight',
        active: false,
        label: 'Display backlight timeout',
        note: "Set on the inverter's own display (Menu → Display): firmware 2.4 does not take it over Bluetooth.",
      },
    ])
    .group(
      FACTORY_GROUP,
      [
        field('calGridVoltage', { label: 'Grid voltage correction' }),
        field('calPvVoltage', { label: 'PV voltage correction' }),
      ],
      FACTORY_NOTE,
    );
  b.row(
    { value: 'Solar' },
    { refData: 'pvPower', append: ' W' },
    { refData: 'pvVoltage', round: 1, append: ' V' },
  )
    .row(
      { value: 'Battery' },
      { refData: 'batterySoc', append: ' %' },
      { refData: 'batteryPower', append: ' W' },
      { refData: 'batteryVoltage', round: 2, append: ' V' },
    )
    .row(
      { value: 'Grid' },
      { refData: 'gridPower', append: ' W' },
      { refData: 'gridDirection' },
      { refData: 'gridFrequency', round: 2, append: ' Hz' },
    )
    .row(
      { value: 'Load' },
      { refData: 'loadPower', append: ' W' },
      { refData: 'selfSupply', prepend: 'self-supply ', append: ' %' },
    )
    .row(
      { value: 'Inverter' },
      { refData: 'operatingModeText' },
      { refData: 'inverterTemp', round: 1, append: ' °C' },
      { refData: 'faultText' },
    )
    .row(
      { value: 'Energy' },
      { refData: 'energyToday', round: 1, prepend: 'today ', append: ' kWh' },
      { refData: 'energyTotal', round: 0, prepend: 'total ', append: ' kWh' },
    );
  return b.build();
}
